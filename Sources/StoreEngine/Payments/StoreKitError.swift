/// An error as StoreKit 1 reports it: an `SKErrorCode` number, or a server error such as 5002.
///
/// An error simulated by its StoreKit 2 name (`fail purchase networkError`) keeps that name in
/// ``storeKit2Name``: a StoreKit 1 app sees the mapped code, the StoreKit 2 view the name.
public struct StoreKitError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  /// The numeric code (`SKError.Code` raw value, or e.g. 5002 in `SSServerErrorDomain`).
  public var code: Int
  /// `SKErrorDomain` or `SSServerErrorDomain`.
  public var domain: String
  /// The `StoreKitError` or `Product.PurchaseError` case it was simulated as, if it was named so.
  /// Absent from ledgers written before it existed (decodes as nil).
  public var storeKit2Name: String?

  public init(code: Int, domain: String = StoreKitError.skErrorDomain, storeKit2Name: String? = nil) {
    self.code = code
    self.domain = domain
    self.storeKit2Name = storeKit2Name
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
    if domain == Self.refundRequestErrorDomain { return Self.refundRequestNames[code] ?? "refundRequestError\(code)" }
    return code == 5002 ? "unknownServerError" : "serverError\(code)"
  }

  /// Parses a case name or number: `paymentCancelled`, `2`, `5002`, or a StoreKit 2 name such as
  /// `networkError` (``StoreKit2Error``), which maps to the code a StoreKit 1 app sees. Only numbers
  /// `SKError.Code` defines (0–20) and the sandbox server's 5002 parse: an app never sees any other.
  public init?(parsing text: String) {
    if let number = Int(text) {
      if number == Self.serverUnknown.code {
        self = .serverUnknown
        return
      }
      guard Self.names[number] != nil else { return nil }
      self.init(code: number)
      return
    }
    if text == "unknownServerError" || text == "server" {
      self = .serverUnknown
      return
    }
    if let match = Self.names.first(where: { $0.value.lowercased() == text.lowercased() }) {
      self.init(code: match.key)
      return
    }
    guard let modern = StoreKit2Error.named(text) else { return nil }
    self.init(code: modern.storeKit1Code, storeKit2Name: modern.name)
  }

  /// Whether `self` is the error `expected` names: the same code and domain, and the same StoreKit 2
  /// name when `expected` was named by one (so `paymentCancelled` also matches a simulated
  /// `userCancelled`, but not the other way round).
  public func matches(_ expected: StoreKitError) -> Bool {
    code == expected.code && domain == expected.domain
      && (expected.storeKit2Name == nil || expected.storeKit2Name == storeKit2Name)
  }

  public var description: String {
    let modern = storeKit2Name.map { ", StoreKit 2 \($0)" } ?? ""
    return "\(name) (\(domain) \(code)\(modern))"
  }
}
