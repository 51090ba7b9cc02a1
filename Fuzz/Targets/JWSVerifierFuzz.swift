import Foundation
import SandboxSigning
import StoreEngine

/// A verifier trusting a fixed root (Fuzz/corpus/jws-verifier-root.pem, read once), so valid
/// chains in the corpus get past the chain check and deeper code is reached.
let fuzzVerifier: JWSVerifier = {
  let path = ProcessInfo.processInfo.environment["FUZZ_JWS_ROOT"] ?? "Fuzz/corpus/jws-verifier-root.pem"
  let roots = FileManager.default.contents(atPath: path).flatMap { try? VerifyTool.loadRoot($0, name: path) }.map { [$0] } ?? []
  return JWSVerifier(
    trustedRoots: roots, bundleID: "com.example.storefront", environment: "Sandbox",
    now: { Date(timeIntervalSince1970: 1_767_225_600) })
}()

/// libFuzzer entry point: any bytes as one JWS line. Decoding and verification must accept or
/// reject, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func jwsVerifierFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  _ = try? CompactJWS(text)
  _ = try? fuzzVerifier.verify(text)
  return 0
}
