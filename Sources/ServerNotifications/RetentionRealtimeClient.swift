import CCurl
import Foundation
import StoreEngine

/// Calls the developer's Get Retention Message endpoint as the App Store does when a customer moves
/// to cancel a subscription: a `POST` of `{"signedPayload": JWS}` whose payload is Apple's
/// `DecodedRealtimeRequestBody`, signed by the storefront's App Store signing chain, answered within
/// a bounded time. The answer is returned as it came (``RetentionDecision`` judges it).
///
/// One libcurl handle, reused so a keep-alive connection is too; use it from one thread at a time.
public final class RetentionRealtimeClient {
  /// The request the App Store signs: Apple's `DecodedRealtimeRequestBody`.
  public struct Request: Sendable, Equatable {
    public var originalTransactionID: String
    public var productID: String
    public var userLocale: String
    public var requestIdentifier: UUID
    public var signedDate: Date

    public init(originalTransactionID: String, productID: String, userLocale: String, requestIdentifier: UUID, signedDate: Date) {
      self.originalTransactionID = originalTransactionID
      self.productID = productID
      self.userLocale = userLocale
      self.requestIdentifier = requestIdentifier
      self.signedDate = signedDate
    }
  }

  /// What one call did: the answer and the wall-clock milliseconds it took.
  public struct Outcome: Sendable, Equatable {
    public var answer: RetentionAnswer
    public var milliseconds: Double
  }

  /// Apple's sheet waits this long for the endpoint before it shows the default message.
  public static let defaultTimeout: Duration = .seconds(2)

  private let signer: any TransactionSigner
  private let appAppleID: Int64
  private let timeout: Duration
  private let handle: UnsafeMutableRawPointer?
  private let headers: UnsafeMutablePointer<curl_slist>?

  private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

  /// - Parameters:
  ///   - signer: the App Store signing chain of the environment (its `environment` goes in the payload).
  ///   - appAppleID: `appAppleId` in the payload.
  ///   - timeout: for the whole call, connection included.
  public init(signer: any TransactionSigner, appAppleID: Int64, timeout: Duration = defaultTimeout) {
    _ = Self.globalInit
    self.signer = signer
    self.appAppleID = appAppleID
    self.timeout = timeout
    handle = curl_easy_init()
    var list = curl_slist_append(nil, "Content-Type: application/json")
    list = curl_slist_append(list, "Expect:")
    headers = list
  }

  deinit {
    curl_easy_cleanup(handle)
    curl_slist_free_all(headers)
  }

  /// Apple's `DecodedRealtimeRequestBody`, as signed.
  private struct Payload: Encodable {
    var originalTransactionId: String
    var appAppleId: Int64
    var productId: String
    var userLocale: String
    var requestIdentifier: String
    var environment: String
    var signedDate: Int64
  }

  private struct Body: Encodable {
    var signedPayload: String
  }

  /// The request's JSON body, `{"signedPayload": "<JWS>"}`.
  public func body(for request: Request) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let payload = Payload(
      originalTransactionId: request.originalTransactionID, appAppleId: appAppleID, productId: request.productID,
      userLocale: request.userLocale, requestIdentifier: request.requestIdentifier.uuidString.lowercased(),
      environment: signer.environment, signedDate: Int64((request.signedDate.timeIntervalSince1970 * 1000).rounded(.down)))
    let jws = try signer.sign(payload: try encoder.encode(payload))
    return try encoder.encode(Body(signedPayload: jws))
  }

  /// Signs `request` and POSTs it to `url`; never throws, never follows a redirect.
  public func call(_ request: Request, url: String) -> Outcome {
    let started = ContinuousClock.now
    func elapsed() -> Double {
      let duration = ContinuousClock.now - started
      return Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
    guard let body = try? body(for: request) else { return Outcome(answer: .failed("OTHER"), milliseconds: elapsed()) }
    return post(body, to: url, started: elapsed)
  }

  /// POSTs an already signed body (the performance test signs its requests up front).
  public func post(_ body: Data, to url: String) -> Outcome {
    let started = ContinuousClock.now
    return post(body, to: url) {
      let duration = ContinuousClock.now - started
      return Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
  }

  private final class Sink {
    var data = Data()
    /// The most an answer may be: a `RealtimeResponseBody` is a few hundred bytes.
    static let limit = 64 * 1024
  }

  private func post(_ body: Data, to url: String, started elapsed: () -> Double) -> Outcome {
    guard let handle else { return Outcome(answer: .failed("OTHER"), milliseconds: 0) }
    let sink = Sink()
    let code = withExtendedLifetime(sink) {
      body.withUnsafeBytes { raw -> CURLcode in
        _ = sf_curl_setopt_pointer(handle, CURLOPT_URL, url)
        _ = sf_curl_setopt_long(handle, CURLOPT_POST, 1)
        _ = sf_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, raw.count)
        _ = sf_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, raw.baseAddress)
        _ = sf_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
        _ = sf_curl_setopt_pointer(handle, CURLOPT_USERAGENT, "Storefront-App-Store-Retention-Messaging/1.0")
        _ = sf_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = sf_curl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = sf_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = sf_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeout))
        _ = sf_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
        _ = sf_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
        _ = sf_curl_setopt_write_function(handle) { data, size, count, context in
          guard let context, let data else { return 0 }
          let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
          let length = size * count
          // A reply past the limit is cut off: curl reports a write error, which is junk to the sheet.
          guard sink.data.count + length <= Sink.limit else { return 0 }
          sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
          return length
        }
        return curl_easy_perform(handle)
      }
    }
    var status = 0
    _ = sf_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    let milliseconds = elapsed()
    guard code == CURLE_OK else {
      let result = code == CURLE_WRITE_ERROR ? DeliveryAttempt.Result.invalidResponse : WebhookClient.result(of: code)
      return Outcome(answer: .failed(result.rawValue), milliseconds: milliseconds)
    }
    return Outcome(answer: .answered(status: status, body: sink.data), milliseconds: milliseconds)
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    max(1, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
  }
}
