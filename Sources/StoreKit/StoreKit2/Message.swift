import Foundation
internal import StoreEngine

/// Something the App Store wants to show the user over the app: a price increase to consent to, a
/// billing issue to fix, a win-back offer. The store sends one when its engine has one (see
/// ``messages``); `display(in:)` is not declared, since Linux has no `UIWindowScene` and a terminal
/// or `SKTestSession` answers the sheet instead.
public struct Message: Equatable, Hashable, Sendable {
  /// What the message is about.
  public let reason: Reason
  /// Tells two messages of the same reason apart (Apple's compare by identity too).
  let id: UUID

  init(reason: Reason) {
    self.reason = reason
    id = UUID()
  }

  /// Why the App Store has a message.
  public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let generic = Reason(rawValue: 0)
    /// A subscription's price rises and the user has not answered.
    public static let priceIncreaseConsent = Reason(rawValue: 1)
    /// A renewal could not be billed (billing retry or grace period).
    public static let billingIssue = Reason(rawValue: 2)
    /// A lapsed subscriber is eligible for a win-back offer.
    public static let winBackOffer = Reason(rawValue: 3)

    /// For the user: what the message is about.
    public var localizedDescription: String {
      switch self {
      case .generic: "Message from the App Store"
      case .priceIncreaseConsent: "Subscription Price Increase"
      case .billingIssue: "Billing Issue"
      case .winBackOffer: "Win-Back Offer"
      default: "Message (\(rawValue))"
      }
    }
  }

  /// The messages the App Store sends from now on: make it (and its iterator) before the change
  /// that should bring one.
  public static var messages: Messages { Messages(stream: StoreKit2Registry.shared.messages()) }

  /// An asynchronous sequence of messages.
  public struct Messages: AsyncSequence, Sendable {
    public typealias Element = Message
    let stream: AsyncStream<Message>

    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Message>.AsyncIterator
      public mutating func next() async -> Message? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
  }
}
