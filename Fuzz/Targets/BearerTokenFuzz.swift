import Foundation
import StoreServer

/// A verifier trusting the key in Fuzz/corpus/bearer-token-keys, so well-signed seeds reach the claim checks.
let fuzzTokenVerifier: BearerTokenVerifier = {
  let path = ProcessInfo.processInfo.environment["FUZZ_TOKEN_KEYS"] ?? "Fuzz/corpus/bearer-token-keys"
  return BearerTokenVerifier(
    keys: APIKeyRing(store: APIKeyStore(directory: URL(fileURLWithPath: path, isDirectory: true))),
    bundleIDs: ["com.example.storefront"], now: { Date(timeIntervalSince1970: 1_767_225_600) })
}()

/// libFuzzer entry point: any bytes as an `Authorization` header value. Parsing and checking must
/// accept or reject, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func bearerTokenFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  _ = fuzzTokenVerifier.verify(authorization: text)
  return 0
}
