import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport

/// The API over a small ledger (a non-consumable, three finished consumables, a monthly subscription,
/// a season pass), so valid ids, revisions and filters in the corpus reach paging and the filters.
/// `nonisolated(unsafe)`: libFuzzer calls the entry point from one thread only.
nonisolated(unsafe) let fuzzAPI: AppStoreServerAPI = {
  var environment = TestStore.environment
  environment.signer = UnsignedTestSigner(environment: "Sandbox")
  do {
    let store = try TestStore(environment: environment)
    try store.buy(FixtureCatalog.removeAds)
    for _ in 0..<3 { try store.queue.finish(try store.buy(FixtureCatalog.coins).id) }
    try store.buy(FixtureCatalog.monthly)
    try store.buy(FixtureCatalog.seasonPass)
    return AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      sleep: { _ in })
  } catch {
    fatalError("the fuzz ledger could not be made: \(error)")
  }
}()

/// The input as a request, as libmicrohttpd would hand it over: the first line is
/// `METHOD PATH[?QUERY]`, the rest the body; the query split at `&` and the first `=`, each part
/// percent-decoded (kept as is when that fails). The path stays encoded: routing decodes its parameter.
func fuzzRequest(_ bytes: UnsafeRawBufferPointer) -> APIRequest {
  let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
  let line = String(decoding: bytes[..<newline], as: UTF8.self)
  let body = newline < bytes.endIndex ? Data(bytes[(newline + 1)...]) : Data()
  let space = line.firstIndex(of: " ") ?? line.endIndex
  let method = String(line[..<space])
  let target: Substring = space < line.endIndex ? line[line.index(after: space)...] : ""
  let question = target.firstIndex(of: "?") ?? target.endIndex
  let path = String(target[..<question])
  let queryText: Substring = question < target.endIndex ? target[target.index(after: question)...] : ""
  let query = queryText.split(separator: "&").map { (pair: Substring) -> (name: String, value: String) in
    let equals = pair.firstIndex(of: "=") ?? pair.endIndex
    let name = String(pair[..<equals])
    let value = equals < pair.endIndex ? String(pair[pair.index(after: equals)...]) : ""
    return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
  }
  return APIRequest(method: method, path: path, query: query, body: body)
}

/// libFuzzer entry point: any bytes as an authenticated request. Routing, query and body parsing,
/// filters and paging must answer (Apple's error or a page), never trap; and every answer must be
/// JSON or one of the two plain-text answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func apiRequestFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let response = fuzzAPI.handle(fuzzRequest(UnsafeRawBufferPointer(start: start, count: count)))
  if response.contentType == "application/json", !response.body.isEmpty,
    (try? JSONSerialization.jsonObject(with: response.body)) == nil
  {
    fatalError("not JSON: \(String(decoding: response.body, as: UTF8.self))")
  }
  if response.status >= 500 { fatalError("\(response.status): \(String(decoding: response.body, as: UTF8.self))") }
  return 0
}
