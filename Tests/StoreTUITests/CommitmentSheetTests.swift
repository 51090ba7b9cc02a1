import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The purchase sheet of a monthly plan (iOS 26.4, DECISIONS §43) states the commitment once:
/// twelve monthly payments of the plan's price, their total, and that cancelling does not end them.
@MainActor
@Suite struct CommitmentSheetTests {
  let month = SubscriptionPeriod(value: 1, unit: .month)

  @Test func theSheetDisclosesTwelvePaymentsAndTheirTotal() {
    let terms = PurchaseSheet.Terms(regularPrice: "$2.99", regularPeriod: month, commitment: .init(payments: 12, total: "$35.88"))
    let sheet = Sheet.purchase(PurchaseSheet(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.yearly, productName: "Premium Yearly", quantity: 1, price: "$2.99",
      alreadyOwned: false, terms: terms))
    let layout = SheetLayout(sheet: sheet, size: Size(width: 100, height: 30))
    // The sheet wraps its lines at its width; the words are read as one text.
    let text = ([layout.title] + layout.lines.map(\.text) + layout.buttons.map(\.title)).joined(separator: " ")
    #expect(text.contains("$2.99/month."))
    #expect(text.contains("12-month commitment: 12 monthly payments of $2.99, $35.88 in total."))
    #expect(text.contains("remaining payments of the commitment are still charged"))
    #expect(PurchaseSheet.Terms(regularPrice: "$29.99", regularPeriod: SubscriptionPeriod(value: 1, unit: .year)).commitmentDisclosure.isEmpty)
  }

  @Test func mOnAYearlyRowWithAMonthlyPlanBuysOnIt() throws {
    let store = try TestStore(catalog: FixtureCatalog.withBillingPlans(), dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let row = try #require(runtime.state.products.firstIndex { $0.id == FixtureCatalog.yearly })
    for _ in 0..<row { runtime.send(.key(.down)) }
    runtime.send(.key(.char("m")))
    guard case .purchase(let sheet) = runtime.state.sheet else {
      Issue.record("no purchase sheet: \(String(describing: runtime.state.sheet))")
      return
    }
    #expect(sheet.terms?.commitment?.payments == 12)
    #expect(sheet.price == "$2.99")
  }
}
