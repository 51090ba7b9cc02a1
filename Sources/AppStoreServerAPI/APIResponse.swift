import Foundation

/// What a handler answers: the status, the body and its content type.
public struct APIResponse: Sendable, Equatable {
  public var status: Int
  /// `application/json` for models and Apple's error objects; Apple's 401 is plain text.
  public var contentType: String
  public var body: Data

  public init(status: Int, contentType: String = "application/json", body: Data = Data()) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }
}
