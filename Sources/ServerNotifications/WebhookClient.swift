import CCurl
import Foundation
import StoreEngine

/// POSTs notification bodies to the app's server over libcurl and says how each attempt went in
/// Apple's `sendAttemptResult` terms. Redirects are not followed (a 3xx is an unsuccessful answer).
///
/// One handle, reused so keep-alive connections are too; use it from one thread at a time.
public final class WebhookClient {
  /// Time-outs of one attempt.
  public struct Configuration: Sendable, Equatable {
    /// Until the TCP (and TLS) connection is up.
    public var connectTimeout: Duration
    /// For the whole attempt, answer included.
    public var totalTimeout: Duration
    /// Who is calling: the App Store's notifier, or the simulated app asking its own server.
    public var userAgent: String

    /// The defaults serve uses: 2 s to connect, 5 s in all.
    public init(
      connectTimeout: Duration = .seconds(2), totalTimeout: Duration = .seconds(5),
      userAgent: String = "Storefront-App-Store-Server-Notifications/2.0"
    ) {
      self.connectTimeout = connectTimeout
      self.totalTimeout = totalTimeout
      self.userAgent = userAgent
    }
  }

  /// What one attempt did.
  public struct Outcome: Sendable, Equatable {
    public var result: DeliveryAttempt.Result
    /// The receiver's status, when it answered.
    public var httpStatus: Int?
    /// Wall-clock milliseconds the attempt took.
    public var milliseconds: Int
    /// libcurl's words for a failure, for the log.
    public var detail: String?
  }

  private let configuration: Configuration
  private let handle: UnsafeMutableRawPointer?
  private let headers: UnsafeMutablePointer<curl_slist>?

  private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

  public init(configuration: Configuration = Configuration()) {
    _ = Self.globalInit
    self.configuration = configuration
    handle = curl_easy_init()
    // Without "Expect:" libcurl waits for a 100 Continue before sending a large body.
    var list = curl_slist_append(nil, "Content-Type: application/json")
    list = curl_slist_append(list, "Expect:")
    headers = list
  }

  deinit {
    curl_easy_cleanup(handle)
    curl_slist_free_all(headers)
  }

  /// POSTs `body` to `url` and classifies the answer; never throws, never follows a redirect.
  public func post(_ body: Data, to url: String) -> Outcome {
    let started = ContinuousClock.now
    func elapsed() -> Int {
      let duration = ContinuousClock.now - started
      return Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
    guard let handle else { return Outcome(result: .other, milliseconds: 0, detail: "libcurl could not make a handle") }
    let code = body.withUnsafeBytes { raw -> CURLcode in
      _ = sf_curl_setopt_pointer(handle, CURLOPT_URL, url)
      _ = sf_curl_setopt_long(handle, CURLOPT_POST, 1)
      _ = sf_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, raw.count)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, raw.baseAddress)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_USERAGENT, configuration.userAgent)
      _ = sf_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
      _ = sf_curl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
      // libcurl's time-outs would otherwise use signals, which a threaded process cannot.
      _ = sf_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
      _ = sf_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
      _ = sf_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.totalTimeout))
      _ = sf_curl_setopt_write_function(handle) { _, size, count, _ in size * count }
      return curl_easy_perform(handle)
    }
    var status = 0
    _ = sf_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    let milliseconds = elapsed()
    guard code == CURLE_OK else {
      let detail = String(cString: curl_easy_strerror(code))
      return Outcome(result: Self.result(of: code), httpStatus: status == 0 ? nil : status, milliseconds: milliseconds, detail: detail)
    }
    var location: UnsafePointer<CChar>?
    _ = sf_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
    let redirect = location.map { String(cString: $0) }
    return Outcome(result: Self.result(ofStatus: status, redirectingTo: redirect, from: url), httpStatus: status, milliseconds: milliseconds)
  }

  /// Apple's name for an answered attempt: 200–206 success; a redirect back to the same URL circular.
  static func result(ofStatus status: Int, redirectingTo redirect: String?, from url: String) -> DeliveryAttempt.Result {
    if (200...206).contains(status) { return .success }
    if (300...399).contains(status), redirect == url { return .circularRedirect }
    return .unsuccessfulHTTPResponseCode
  }

  /// Apple's name for an attempt that got no usable answer.
  static func result(of code: CURLcode) -> DeliveryAttempt.Result {
    switch code {
    case CURLE_OPERATION_TIMEDOUT: .timedOut
    case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .noResponse
    case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: .prematureClose
    case CURLE_SEND_ERROR, CURLE_RECV_ERROR: .socketIssue
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
      .tlsIssue
    case CURLE_TOO_MANY_REDIRECTS: .circularRedirect
    case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING: .invalidResponse
    default: .other
    }
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    max(1, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
  }
}
