import Foundation
internal import StoreEngine

/// The App Store's offer-code redemption sheet for an attached app (`presentCodeRedemptionSheet()`):
/// the app opens it in its mailbox, a storefront on its store shows it and writes the code its user
/// typed (or a cancel), and the app's own engine redeems the code, so the purchase reaches the app's
/// observer as any purchase does (DECISIONS §42).
extension StoreKitEnvironment {
  /// Opens the sheet where a storefront shows it; without an attached store (an `SKTestSession`)
  /// nobody can type a code: a test redeems one with `SKTestSession.redeemOfferCode(_:)`.
  func presentCodeRedemptionSheet() {
    locked {
      guard let store = try? openStore(), store.configuration.attachment != nil, let session = attachedSession else { return }
      do {
        try store.queue.tell(.codeSheet(session: session, .waiting))
      } catch {
        report("opening the offer-code sheet failed: \(describe(error))")
        return
      }
      if !store.queue.attachedProcesses.contains(where: { $0.role == .storefront && $0.showsSheets }) {
        let directory = store.configuration.dataDirectory?.path ?? ""
        FileHandle.standardError.write(Data((
          "StoreKit: the offer-code sheet waits for a storefront on \(directory); start one with `storefront --data-dir \(directory)`\n").utf8))
      }
    }
  }

  /// After a step or a look at the ledger (lock held): the storefront's answer to the app's code
  /// sheet. The sheet closes first, so a code the store refuses is not tried again.
  func attendCodeSheet(_ store: OpenStore) {
    guard let session = attachedSession, let sheet = store.queue.codeSheets[session] else { return }
    switch sheet {
    case .waiting:
      return
    case .cancelled:
      try? store.queue.tell(.codeSheet(session: session, nil))
      offerCodeSheetCall?.resume(returning: .userCancelled)
      offerCodeSheetCall = nil
    case .redeem(let code):
      try? store.queue.tell(.codeSheet(session: session, nil))
      // iOS 27's sheet call takes the purchase the code makes (DECISIONS §45).
      if let call = offerCodeSheetCall {
        offerCodeSheetCall = nil
        redeem(code, for: call, in: store)
        return
      }
      do { try perform(.redeemOfferCode(code)) } catch { report("redeeming the offer code '\(code)' failed: \(describe(error))") }
    }
  }
}
