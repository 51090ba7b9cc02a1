import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B99: the subscribe sheet of a bundle or suite names what it includes; the Transactions pane
/// lists a bundle's component transactions under it (DECISIONS §47).
@MainActor
@Suite struct BundleSheetTests {
  static let bundle: Product.ID = "com.example.premium.bundle"

  static func catalog() -> Catalog {
    let base = FixtureCatalog.make()
    let info = SubscriptionInfo(
      groupID: "BUNDLE01", level: 1, period: SubscriptionPeriod(value: 1, unit: .month),
      bundledSubscriptions: [
        BundledSubscription(productID: FixtureCatalog.monthly, groupID: FixtureCatalog.group),
        BundledSubscription(productID: "com.example.suite.only", groupID: "BUNDLE01", localizations: [
          Localization(locale: "en_US", displayName: "Cloud Storage", description: "")
        ]),
      ])
    let product = Product(
      id: bundle, kind: .autoRenewableSubscription, referenceName: "Premium Bundle", price: Decimal(string: "4.99") ?? 0, subscription: info)
    return Catalog(
      formatVersion: .init(major: 6, minor: 3), products: base.products + [product],
      subscriptionGroups: base.subscriptionGroups + [SubscriptionGroup(id: "BUNDLE01", name: "Bundle", productIDs: [bundle], kind: .bundle)],
      settings: base.settings)
  }

  @Test func theSheetNamesWhatTheBundleIncludesAndTheRowsSitUnderIt() throws {
    let store = try TestStore(catalog: Self.catalog(), dialogs: true)
    // Wide enough for the Product column to show the whole name.
    let runtime = try AppRuntime(queue: store.queue, size: Size(width: 160, height: 32))
    let row = try #require(runtime.state.row(of: Self.bundle))
    runtime.send(.key(.char("1")))
    runtime.send(.key(.home))
    for _ in 0..<row { runtime.send(.key(.down)) }
    runtime.send(.key(.enter))
    guard case .purchase(let sheet) = runtime.state.sheet else { Issue.record("no purchase sheet"); return }
    #expect(sheet.includes == ["Premium Monthly", "Cloud Storage"])
    #expect(runtime.render().plainText.contains("Includes: Premium Monthly, Cloud Storage."))
    runtime.send(.key(.enter))
    runtime.send(.key(.char("2")))
    let screen = runtime.render().plainText
    #expect(screen.contains("└ Premium Monthly (in Premium Bundle)"))
    #expect(screen.contains("└ Cloud Storage (in Premium Bundle)"))
  }
}
