/// An error as StoreKit 1 reports it: an `SKErrorCode` number, or a server error such as 5002.
public struct StoreKitError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  /// The numeric code (`SKError.Code` raw value, or e.g. 5002 in `SSServerErrorDomain`).
  public var code: Int
  /// `SKErrorDomain` or `SSServerErrorDomain`.
  public var domain: String

  public init(code: Int, domain: String = StoreKitError.skErrorDomain) {
    self.code = code
    self.domain = domain
  }

  public static let skErrorDomain = "SKErrorDomain"
  public static let serverErrorDomain = "SSServerErrorDomain"

  public static let unknown = StoreKitError(code: 0)
  public static let clientInvalid = StoreKitError(code: 1)
  public static let paymentCancelled = StoreKitError(code: 2)
  public static let paymentInvalid = StoreKitError(code: 3)
  public static let paymentNotAllowed = StoreKitError(code: 4)
  public static let storeProductNotAvailable = StoreKitError(code: 5)
  public static let cloudServiceNetworkConnectionFailed = StoreKitError(code: 7)
  public static let invalidOfferIdentifier = StoreKitError(code: 11)
  public static let invalidSignature = StoreKitError(code: 12)
  public static let missingOfferParams = StoreKitError(code: 13)
  public static let ineligibleForOffer = StoreKitError(code: 18)
  /// "An unknown error has occurred" from the sandbox's purchase server.
  public static let serverUnknown = StoreKitError(code: 5002, domain: serverErrorDomain)

  /// `SKError.Code` case names by raw value.
  public static let names: [Int: String] = [
    0: "unknown", 1: "clientInvalid", 2: "paymentCancelled", 3: "paymentInvalid",
    4: "paymentNotAllowed", 5: "storeProductNotAvailable", 6: "cloudServicePermissionDenied",
    7: "cloudServiceNetworkConnectionFailed", 8: "cloudServiceRevoked",
    9: "privacyAcknowledgementRequired", 10: "unauthorizedRequestData", 11: "invalidOfferIdentifier",
    12: "invalidSignature", 13: "missingOfferParams", 14: "invalidOfferPrice", 15: "overlayCancelled",
    16: "overlayInvalidConfiguration", 17: "overlayTimeout", 18: "ineligibleForOffer",
    19: "unsupportedPlatform", 20: "overlayPresentedInBackgroundScene",
  ]

  /// The case name (`paymentCancelled`), or `serverError5002` outside `SKErrorDomain`.
  public var name: String {
    if domain == Self.skErrorDomain { return Self.names[code] ?? "code\(code)" }
    return code == 5002 ? "unknownServerError" : "serverError\(code)"
  }

  /// Parses a case name or number: `paymentCancelled`, `2`, `5002`.
  public init?(parsing text: String) {
    if let number = Int(text) {
      self.init(code: number, domain: number >= 1000 ? Self.serverErrorDomain : Self.skErrorDomain)
      return
    }
    if text == "unknownServerError" || text == "server" {
      self = .serverUnknown
      return
    }
    guard let match = Self.names.first(where: { $0.value.lowercased() == text.lowercased() }) else {
      return nil
    }
    self.init(code: match.key)
  }

  public var description: String { "\(name) (\(domain) \(code))" }
}
