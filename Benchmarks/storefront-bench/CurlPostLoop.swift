import CCurl
import Foundation

/// The baseline of `notify_per_s_vs_curl_loop`: a plain libcurl POST loop (one easy handle, the same
/// headers and body the deliverer sends), nothing else per request.
enum CurlPostLoop {
  /// Seconds to POST `body` to `url` `count` times, one after another; throws unless every answer is 200.
  static func seconds(posting body: Data, to url: String, count: Int) throws -> Double {
    _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    guard let handle = curl_easy_init() else { throw BenchError.failed("curl_easy_init failed") }
    defer { curl_easy_cleanup(handle) }
    var headers = curl_slist_append(nil, "Content-Type: application/json")
    headers = curl_slist_append(headers, "Expect:")
    defer { curl_slist_free_all(headers) }
    return try body.withUnsafeBytes { raw in
      _ = sf_curl_setopt_pointer(handle, CURLOPT_URL, url)
      _ = sf_curl_setopt_long(handle, CURLOPT_POST, 1)
      _ = sf_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, raw.count)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, raw.baseAddress)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
      _ = sf_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
      _ = sf_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, 5_000)
      _ = sf_curl_setopt_write_function(handle) { _, size, count, _ in size * count }
      let start = Stopwatch.nanoseconds()
      for _ in 0..<count {
        var status = 0
        guard curl_easy_perform(handle) == CURLE_OK, sf_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK,
          status == 200
        else { throw BenchError.failed("the plain libcurl POST loop got status \(status)") }
      }
      return Double(Stopwatch.nanoseconds() - start) / 1e9
    }
  }
}
