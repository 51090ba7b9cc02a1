/// A StoreKit 2 error case: `StoreKitError` or `Product.PurchaseError`, the names Xcode's
/// `SKTestFailures` offers, with the `SKError` code a StoreKit 1 app sees for it.
///
/// StoreKit 2 errors are Swift enums without numbers; the mapping to StoreKit 1 codes is ours
/// (DECISIONS.md §14): the SK1 case that means the same, `unknown` where there is none.
public struct StoreKit2Error: Sendable, Equatable, Hashable {
  /// Which Swift error type the case belongs to.
  public enum Kind: String, Sendable, Equatable, Hashable {
    case storeKitError = "StoreKitError"
    case purchaseError = "Product.PurchaseError"
  }

  public var kind: Kind
  /// The case name (`networkError`, `invalidQuantity`).
  public var name: String
  /// The `SKError.Code` a StoreKit 1 app sees for it.
  public var storeKit1Code: Int

  public init(_ kind: Kind, _ name: String, storeKit1Code: Int) {
    self.kind = kind
    self.name = name
    self.storeKit1Code = storeKit1Code
  }

  /// Every case, `StoreKitError` first, in Apple's order.
  public static let all: [StoreKit2Error] = [
    StoreKit2Error(.storeKitError, "unknown", storeKit1Code: 0),
    StoreKit2Error(.storeKitError, "userCancelled", storeKit1Code: 2),
    StoreKit2Error(.storeKitError, "networkError", storeKit1Code: 7),
    StoreKit2Error(.storeKitError, "systemError", storeKit1Code: 0),
    StoreKit2Error(.storeKitError, "notAvailableInStorefront", storeKit1Code: 5),
    StoreKit2Error(.storeKitError, "notEntitled", storeKit1Code: 1),
    StoreKit2Error(.storeKitError, "unsupported", storeKit1Code: 19),
    StoreKit2Error(.purchaseError, "invalidQuantity", storeKit1Code: 3),
    StoreKit2Error(.purchaseError, "productUnavailable", storeKit1Code: 5),
    StoreKit2Error(.purchaseError, "purchaseNotAllowed", storeKit1Code: 4),
    StoreKit2Error(.purchaseError, "ineligibleForOffer", storeKit1Code: 18),
    StoreKit2Error(.purchaseError, "invalidOfferIdentifier", storeKit1Code: 11),
    StoreKit2Error(.purchaseError, "invalidOfferPrice", storeKit1Code: 14),
    StoreKit2Error(.purchaseError, "invalidOfferSignature", storeKit1Code: 12),
    StoreKit2Error(.purchaseError, "missingOfferParameters", storeKit1Code: 13),
  ]

  /// The case called `name` (case-insensitive), if StoreKit 2 has one.
  public static func named(_ name: String) -> StoreKit2Error? {
    all.first { $0.name.lowercased() == name.lowercased() }
  }

  /// What a StoreKit 2 app sees for `error`: the case it was simulated as, or for an error named
  /// by its SK1 code (or one the store raised itself) the case that means the same; server
  /// errors and codes without one are `StoreKitError.unknown`.
  public init(for error: StoreKitError) {
    if let name = error.storeKit2Name, let named = Self.named(name) {
      self = named
      return
    }
    let byCode: [Int: String] = [
      1: "notEntitled", 2: "userCancelled", 3: "invalidQuantity", 4: "purchaseNotAllowed", 5: "productUnavailable",
      6: "notEntitled", 7: "networkError", 11: "invalidOfferIdentifier", 12: "invalidOfferSignature",
      13: "missingOfferParameters", 14: "invalidOfferPrice", 18: "ineligibleForOffer", 19: "unsupported",
    ]
    let name = error.domain == StoreKitError.skErrorDomain ? byCode[error.code] ?? "unknown" : "unknown"
    self = Self.named(name) ?? StoreKit2Error(.storeKitError, "unknown", storeKit1Code: 0)
  }

  /// `StoreKitError.networkError`, `Product.PurchaseError.invalidQuantity`.
  public var qualifiedName: String { "\(kind.rawValue).\(name)" }
}
