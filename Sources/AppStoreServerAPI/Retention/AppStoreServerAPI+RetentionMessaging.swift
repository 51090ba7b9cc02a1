import Foundation
import StoreEngine

extension APIError {
  static let invalidImage = APIError(status: 400, code: 4_000_161, message: "Invalid image.")
  static let headerTooLong = APIError(status: 400, code: 4_000_162, message: "Header text is too long.")
  static let bodyTooLong = APIError(status: 400, code: 4_000_163, message: "Body text is too long.")
  static let invalidLocale = APIError(status: 400, code: 4_000_164, message: "Invalid locale.")
  static let altTextTooLong = APIError(status: 400, code: 4_000_175, message: "Alt text is too long.")
  static let invalidPerformanceTestRequest = APIError(status: 400, code: 4_000_211, message: "Invalid performance test request.")
  static let invalidRequestID = APIError(status: 400, code: 4_000_212, message: "Invalid request id.")
  static let existingPerformanceTestRun = APIError(status: 400, code: 4_000_213, message: "A performance test is already running.")
  static let badRequestRealtimeURL = APIError(status: 400, code: 4_000_215, message: "Invalid realtime URL.")
  static let badRequestImageSize = APIError(status: 400, code: 4_000_216, message: "Invalid image size.")
  static let tooManyBulletPoints = APIError(status: 400, code: 4_000_218, message: "Too many bullet points.")
  static let bulletPointTextTooLong = APIError(status: 400, code: 4_000_219, message: "Bullet point text is too long.")
  static let maximumNumberOfImagesReached = APIError(status: 403, code: 4_030_014, message: "Maximum number of images reached.")
  static let maximumNumberOfMessagesReached = APIError(status: 403, code: 4_030_016, message: "Maximum number of messages reached.")
  static let messageNotApproved = APIError(status: 403, code: 4_030_017, message: "Message not approved.")
  static let imageNotApproved = APIError(status: 403, code: 4_030_018, message: "Image not approved.")
  static let imageInUse = APIError(status: 403, code: 4_030_019, message: "Image in use.")
  static let forbiddenNoPassingTest = APIError(
    status: 403, code: 4_030_026, message: "A passing performance test is required before configuring a production URL.")
  static let imageNotFound = APIError(status: 404, code: 4_040_014, message: "Image not found.")
  static let messageNotFound = APIError(status: 404, code: 4_040_015, message: "Message not found.")
  static let performanceTestRunNotFound = APIError(status: 404, code: 4_040_018, message: "Performance test run not found.")
  static let defaultMessageNotFound = APIError(status: 404, code: 4_040_020, message: "Default message not found.")
  static let realtimeURLNotFound = APIError(status: 404, code: 4_040_021, message: "Realtime URL not found.")
  static let imageAlreadyExists = APIError(status: 409, code: 4_090_000, message: "Image already exists.")
  static let messageAlreadyExists = APIError(status: 409, code: 4_090_001, message: "Message already exists.")
}

extension AppStoreServerAPI {
  /// The endpoints served only with a ``RetentionMessagingService``.
  static let retentionMessagingEndpoints: Set<APIEndpoint> = [
    .uploadImage, .deleteImage, .getImageList, .uploadMessage, .deleteMessage, .getMessageList,
    .configureDefaultMessage, .deleteDefaultMessage, .getDefaultMessage, .configureRealtimeURL, .deleteRealtimeURL,
    .getRealtimeURL, .initiatePerformanceTest, .getPerformanceTestResults,
  ]

  /// One Retention Messaging API request; every change is one locked read-modify-write of the configuration in the ledger.
  func retentionMessaging(
    _ endpoint: APIEndpoint, parameters: [String], query: QueryParameters, body: Data
  ) throws(APIError) -> APIResponse {
    guard let service = retentionMessaging else { throw .generalInternal }
    let store = service.store
    let first = parameters.first ?? ""
    let environmentName = environment == .production ? "Production" : "Sandbox"
    switch endpoint {
    case .uploadImage:
      let id = try Self.identifier(first)
      let size = query.values("imageSize").last ?? "FULL_SIZE"
      guard size == "FULL_SIZE" || size == "BULLET_POINT" else { throw .badRequestImageSize }
      guard body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw .invalidImage }
      try Self.change(store) { state throws(APIError) in
        guard state.images[id] == nil else { throw .imageAlreadyExists }
        guard state.images.count < RetentionMessagingService.maximumImages else { throw .maximumNumberOfImagesReached }
        state.images[id] = RetentionMessaging.Image(state: state.reviewOutcome, size: size, byteCount: body.count)
      }
      return APIResponse(status: 200)
    case .deleteImage:
      let id = try Self.identifier(first)
      try Self.change(store) { state throws(APIError) in
        guard state.images[id] != nil else { throw .imageNotFound }
        let inUse = state.messages.values.contains { message in
          message.imageIdentifier == id || (message.bulletPoints ?? []).contains { $0.imageIdentifier == id }
        }
        guard !inUse else { throw .imageInUse }
        state.images[id] = nil
      }
      return APIResponse(status: 200)
    case .getImageList:
      let images = store.read().images.sorted { $0.key < $1.key }.map {
        ImageItem(imageIdentifier: $0.key, imageState: $0.value.state.rawValue, imageSize: $0.value.size)
      }
      return try ResponseEncoding.response(ImageList(imageIdentifiers: images))
    case .uploadMessage:
      let id = try Self.identifier(first)
      let message = try Self.message(from: body)
      try Self.change(store) { state throws(APIError) in
        guard state.messages[id] == nil else { throw .messageAlreadyExists }
        guard state.messages.count < RetentionMessagingService.maximumMessages else { throw .maximumNumberOfMessagesReached }
        let images = [message.imageIdentifier].compactMap { $0 } + (message.bulletPoints ?? []).map(\.imageIdentifier)
        guard images.allSatisfy({ state.images[$0] != nil }) else { throw .imageNotFound }
        var stored = message
        stored.state = state.reviewOutcome
        state.messages[id] = stored
      }
      return APIResponse(status: 200)
    case .deleteMessage:
      let id = try Self.identifier(first)
      try Self.change(store) { state throws(APIError) in
        guard state.messages[id] != nil else { throw .messageNotFound }
        state.messages[id] = nil
        // A default naming a deleted message is gone with it: it could never be shown.
        state.defaults = state.defaults.filter { $0.value != id }
      }
      return APIResponse(status: 200)
    case .getMessageList:
      let messages = store.read().messages.sorted { $0.key < $1.key }.map {
        MessageItem(messageIdentifier: $0.key, messageState: $0.value.state.rawValue)
      }
      return try ResponseEncoding.response(MessageList(messageIdentifiers: messages))
    case .configureDefaultMessage:
      let key = try Self.defaultKey(parameters)
      guard let request = try? JSONDecoder().decode(DefaultRequest.self, from: body), let text = request.messageIdentifier
      else { throw .generalBadRequest }
      let id = try Self.identifier(text)
      try Self.change(store) { state throws(APIError) in
        guard let message = state.messages[id] else { throw .messageNotFound }
        guard message.state == .approved else { throw .messageNotApproved }
        let images = [message.imageIdentifier].compactMap { $0 } + (message.bulletPoints ?? []).map(\.imageIdentifier)
        guard images.allSatisfy({ state.images[$0]?.state == .approved }) else { throw .imageNotApproved }
        state.defaults[key] = id
      }
      return APIResponse(status: 200)
    case .deleteDefaultMessage:
      let key = try Self.defaultKey(parameters)
      try Self.change(store) { state throws(APIError) in
        guard state.defaults[key] != nil else { throw .defaultMessageNotFound }
        state.defaults[key] = nil
      }
      return APIResponse(status: 200)
    case .getDefaultMessage:
      let key = try Self.defaultKey(parameters)
      guard let id = store.read().defaults[key] else { throw .defaultMessageNotFound }
      return try ResponseEncoding.response(DefaultResponse(messageIdentifier: id))
    case .configureRealtimeURL:
      guard let request = try? JSONDecoder().decode(RealtimeURLBody.self, from: body), let url = request.realtimeURL,
        Self.isRealtimeURL(url)
      else { throw .badRequestRealtimeURL }
      let production = environment == .production
      try Self.change(store) { state throws(APIError) in
        if production, !state.performanceTests.values.contains(where: { $0.result == "PASS" }) {
          throw .forbiddenNoPassingTest
        }
        state.realtimeURLs[environmentName] = url
      }
      return APIResponse(status: 200)
    case .deleteRealtimeURL:
      try Self.change(store) { state throws(APIError) in
        guard state.realtimeURLs[environmentName] != nil else { throw .realtimeURLNotFound }
        state.realtimeURLs[environmentName] = nil
      }
      return APIResponse(status: 200)
    case .getRealtimeURL:
      guard let url = store.read().realtimeURLs[environmentName] else { throw .realtimeURLNotFound }
      return try ResponseEncoding.response(RealtimeURLBody(realtimeURL: url))
    case .initiatePerformanceTest:
      // The test runs only in the sandbox environment.
      guard environment == .sandbox, let request = try? JSONDecoder().decode(PerformanceTestBody.self, from: body),
        let text = request.originalTransactionId
      else { throw .invalidPerformanceTestRequest }
      let id = try LedgerReader.parseID(text)
      guard let signed = try reader.transaction(id) else { throw .originalTransactionIDNotFound }
      guard signed.row.productKind == .autoRenewableSubscription else { throw .invalidPerformanceTestRequest }
      let requestID = service.makeRequestID()
      let config = RetentionMessagingService.config
      let target = try Self.change(store) { state throws(APIError) -> String in
        guard let url = state.realtimeURLs[environmentName] else { throw .realtimeURLNotFound }
        guard !state.performanceTests.values.contains(where: { $0.result == "PENDING" }) else { throw .existingPerformanceTestRun }
        state.performanceTests[requestID] = RetentionMessaging.PerformanceTest(
          result: "PENDING", target: url, totalRequests: config.totalRequests, numPending: config.totalRequests)
        return url
      }
      service.startPerformanceTest(
        RetentionMessagingService.PerformanceTestRun(
          requestID: requestID, target: target, originalTransactionID: signed.row.originalID.description,
          productID: signed.row.productID.rawValue))
      return try ResponseEncoding.response(PerformanceTestStarted(config: config, requestId: requestID))
    case .getPerformanceTestResults:
      guard UUID(uuidString: first) != nil else { throw .invalidRequestID }
      guard let test = store.read().performanceTests[first.lowercased()] else { throw .performanceTestRunNotFound }
      return try ResponseEncoding.response(
        PerformanceTestResult(
          config: RetentionMessagingService.config, target: test.target, result: test.result, successRate: test.successRate,
          numPending: test.numPending, responseTimes: test.responseTimes, failures: test.failures))
    default:
      throw .generalInternal
    }
  }

  private static func change<Value>(
    _ store: RetentionMessagingStore, _ body: (inout RetentionMessaging) throws(APIError) -> Value
  ) throws(APIError) -> Value {
    let outcome: Result<Value, APIError>
    do {
      outcome = try store.update { state -> Result<Value, APIError> in
        var copy = state
        do throws(APIError) {
          let value = try body(&copy)
          state = copy
          return .success(value)
        } catch {
          return .failure(error)
        }
      }
    } catch {
      throw .generalInternalRetryable
    }
    return try outcome.get()
  }

  /// A path's image or message identifier: a UUID, kept lowercased.
  private static func identifier(_ text: String) throws(APIError) -> String {
    guard let uuid = UUID(uuidString: text) else { throw .generalBadRequest }
    return uuid.uuidString.lowercased()
  }

  /// `productId/locale` of a default message's path, the locale checked (`en-US`, `fr`, `zh-Hans-CN`).
  private static func defaultKey(_ parameters: [String]) throws(APIError) -> String {
    guard parameters.count == 2, !parameters[0].isEmpty else { throw .generalBadRequest }
    let parts = parameters[1].split(separator: "-", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
      parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    else { throw .invalidLocale }
    return RetentionMessaging.defaultKey(productID: parameters[0], locale: parameters[1])
  }

  private static func isRealtimeURL(_ text: String) -> Bool {
    guard text.utf8.count <= 256, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
    else { return false }
    return true
  }

  /// Apple's `UploadMessageRequestBody`, checked against Apple's limits.
  private static func message(from body: Data) throws(APIError) -> RetentionMessaging.Message {
    guard let request = try? JSONDecoder().decode(UploadMessageBody.self, from: body), let header = request.header,
      let text = request.body
    else { throw .generalBadRequest }
    guard header.count <= 66 else { throw .headerTooLong }
    guard text.count <= 144 else { throw .bodyTooLong }
    var imageID: String?
    if let image = request.image {
      guard let id = image.imageIdentifier, let alt = image.altText else { throw .generalBadRequest }
      guard alt.count <= 150 else { throw .altTextTooLong }
      imageID = try identifier(id)
    }
    var bullets: [RetentionMessaging.BulletPoint]?
    if let points = request.bulletPoints {
      guard points.count <= 5 else { throw .tooManyBulletPoints }
      bullets = []
      for point in points {
        guard let text = point.text, let id = point.imageIdentifier, let alt = point.altText else { throw .generalBadRequest }
        guard text.count <= 66 else { throw .bulletPointTextTooLong }
        guard alt.count <= 150 else { throw .altTextTooLong }
        bullets?.append(RetentionMessaging.BulletPoint(text: text, imageIdentifier: try identifier(id), altText: alt))
      }
    }
    return RetentionMessaging.Message(
      state: .pending, header: header, body: text, imageIdentifier: imageID, altText: request.image?.altText,
      bulletPoints: bullets)
  }
}

// The bodies as sent and answered (Apple's model names in the comments).

/// `UploadMessageRequestBody`.
private struct UploadMessageBody: Decodable {
  struct Image: Decodable {
    var imageIdentifier: String?
    var altText: String?
  }
  struct Bullet: Decodable {
    var text: String?
    var imageIdentifier: String?
    var altText: String?
  }
  var header: String?
  var body: String?
  var image: Image?
  var bulletPoints: [Bullet]?
}

/// `DefaultConfigurationRequest`.
private struct DefaultRequest: Decodable { var messageIdentifier: String? }
/// `DefaultConfigurationResponse`.
private struct DefaultResponse: Encodable { var messageIdentifier: String }
/// `RealtimeUrlRequest` / `RealtimeUrlResponse`.
private struct RealtimeURLBody: Codable { var realtimeURL: String? }
/// `PerformanceTestRequest`.
private struct PerformanceTestBody: Decodable { var originalTransactionId: String? }
/// `GetImageListResponseItem`.
private struct ImageItem: Encodable {
  var imageIdentifier: String
  var imageState: String
  var imageSize: String
}
/// `GetImageListResponse`.
private struct ImageList: Encodable { var imageIdentifiers: [ImageItem] }
/// `GetMessageListResponseItem`.
private struct MessageItem: Encodable {
  var messageIdentifier: String
  var messageState: String
}
/// `GetMessageListResponse`.
private struct MessageList: Encodable { var messageIdentifiers: [MessageItem] }
/// `PerformanceTestResponse`.
private struct PerformanceTestStarted: Encodable {
  var config: RetentionMessagingService.Config
  var requestId: String
}
/// `PerformanceTestResultResponse`.
private struct PerformanceTestResult: Encodable {
  var config: RetentionMessagingService.Config
  var target: String
  var result: String
  var successRate: Int?
  var numPending: Int
  var responseTimes: [String: Int]?
  var failures: [String: Int]?
}
