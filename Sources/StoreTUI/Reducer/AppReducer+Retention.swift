import Foundation
import StoreEngine
import StoreScenario

extension AppReducer {
  /// `m` on a subscription: manage it and move to cancel. Turning off what is already off asks nothing.
  static func cancelSubscription(
    _ id: PaymentTransaction.ID, product: Product.ID, autoRenew: Bool, _ state: inout AppState
  ) -> [AppCommand] {
    guard autoRenew else {
      state.notice = Notice("\(state.displayName(of: product)) is already cancelled (auto-renew is off).")
      return []
    }
    return [.retentionFlow(id, product: product)]
  }

  /// The cancel sheet, as the realtime answer (or the default message) decided it. Accepting an
  /// alternate product buys it (a switch within the group); a V1 promotional offer buys the product
  /// with the offer, checked by the store as any signed offer; "Cancel Subscription" turns auto-renew
  /// off; "Keep" changes nothing.
  static func retentionAnswered(
    _ id: PaymentTransaction.ID, product: Product.ID, _ result: RetentionFlowResult, _ state: inout AppState
  ) -> [AppCommand] {
    let name = state.displayName(of: product)
    let cancel = AppCommand.setAutoRenew(id, false)
    var lines: [String] = []
    func show(_ message: RetentionMessaging.Message?) {
      guard let message else { return }
      lines += [message.header, message.body]
      for point in message.bulletPoints ?? [] { lines.append("• \(point.text)") }
      lines.append("")
    }
    var sheet: ConfirmSheet
    switch result.decision.sheet {
    case .plain:
      lines.append("Cancel \(name)? It stays active until the end of the current period.")
      sheet = ConfirmSheet(title: "Cancel Subscription", message: "", confirmTitle: "Cancel Subscription", cancelTitle: "Keep", command: cancel)
    case .message(_, let message):
      show(message)
      lines.append("Cancel \(name)? It stays active until the end of the current period.")
      sheet = ConfirmSheet(title: "Cancel Subscription", message: "", confirmTitle: "Cancel Subscription", cancelTitle: "Keep", command: cancel)
    case .alternateProduct(let alternate, _, let message):
      show(message)
      let other = state.displayName(of: alternate)
      lines.append("Switch to \(other) instead of cancelling \(name)?")
      sheet = ConfirmSheet(
        title: "Cancel Subscription", message: "", confirmTitle: "Switch to \(other)", cancelTitle: "Keep", command: .buy(alternate),
        alternative: .init(title: "Cancel Subscription", command: cancel))
    case .promotionalOffer(let offer, _, let message):
      show(message)
      lines.append("Offer '\(offer.offerIdentifier)' for \(name) instead of cancelling.")
      if let payment = offer.payment(for: product) {
        sheet = ConfirmSheet(
          title: "Cancel Subscription", message: "", confirmTitle: "Accept Offer", cancelTitle: "Keep", command: .buyPayment(payment),
          alternative: .init(title: "Cancel Subscription", command: cancel))
      } else {
        sheet = ConfirmSheet(title: "Cancel Subscription", message: "", confirmTitle: "Cancel Subscription", cancelTitle: "Keep", command: cancel)
      }
    }
    if let reason = result.decision.fallbackReason { lines += ["", "(Default shown: \(reason).)"] }
    sheet.message = lines.joined(separator: "\n")
    state.sheet = .confirm(sheet)
    return []
  }
}
