import Foundation
import XCTest

@testable import StoreEngine

/// Adding, removing, duplicating and moving entries (issue 26): an addition only adds lines, laid
/// out as the file's own entries are; adding and then removing a product gives the file back byte
/// for byte; every result loads with what was asked.
final class CatalogStructureEditTests: XCTestCase {
  func testAddingAndRemovingAProductOfEachKindGivesTheFileBackByteForByte() throws {
    var checked = 0
    for (name, bytes) in try CatalogEditingCorpus.files() {
      let catalog = try CatalogDecoder().decode(Data(bytes), path: name)
      for (type, kind) in CatalogTextEditor.typeNames {
        var editor = CatalogTextEditor(bytes: bytes, seed: 1)
        let group = catalog.subscriptionGroups.first { $0.kind == .regular }?.name ?? "New group"
        let edits: [CatalogEdit] = kind == .autoRenewableSubscription ? [.group(group), .price("3.49"), .name("Added", locale: nil)] : [.price("3.49"), .name("Added", locale: nil)]
        try editor.add(kind, id: "added.\(type)", edits: edits)
        let loaded = try CatalogDecoder().decode(Data(editor.bytes), path: name)
        let product = try XCTUnwrap(loaded.product(Product.ID("added.\(type)")), "\(name) \(type)")
        XCTAssertEqual(product.kind, kind, name)
        XCTAssertEqual(product.price, Decimal(string: "3.49"), name)
        XCTAssertEqual(product.displayName(locale: loaded.settings.locale), "Added", name)
        XCTAssertEqual(loaded.products.count, catalog.products.count + 1, name)
        let old = CatalogEditingCorpus.lines(bytes)
        if old.count > 3 {
          XCTAssertTrue(CatalogEditingCorpus.onlyAdds(old, to: CatalogEditingCorpus.lines(editor.bytes)), "\(name) \(type): an addition only adds lines")
        }
        // Where the array was there already, removing the product gives the file back.
        let arrayKey = kind == .nonRenewingSubscription ? "\"nonRenewingSubscriptions\"" : "\"products\""
        let hadArray = kind == .autoRenewableSubscription ? catalog.subscriptionGroups.contains(where: { $0.name == group }) : String(decoding: bytes, as: UTF8.self).contains(arrayKey)
        if hadArray {
          try editor.remove("added.\(type)")
          CatalogEditingCorpus.assertSameBytes(editor.bytes, bytes, "\(name) \(type): added and removed")
        }
        checked += 1
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 120)
  }

  func testAnAddedProductIsLaidOutAsTheFilesOwn() throws {
    let bytes = Array(try Data(contentsOf: CatalogTestFiles.fixture("hand-edited.storekit")))
    var editor = CatalogTextEditor(bytes: bytes, seed: 2)
    try editor.add(.consumable, id: "hand.gems", edits: [.price("2"), .name("보석", locale: "ko")])
    let text = String(decoding: editor.bytes, as: UTF8.self)
    // Four-space indentation, ": ", the siblings' key order, no key the siblings lack (internalID).
    XCTAssertTrue(text.contains("""
              {
                  "productID": "hand.gems",
                  "type": "Consumable",
                  "referenceName": "hand.gems",
                  "displayPrice": "2",
                  "localizations": [
                      {
                          "locale": "en_US",
      """), text)
    XCTAssertFalse(text.contains("internalID"), text)
    // A key the product lacks goes where a sibling that has it puts it.
    try editor.apply([.familyShareable(true)], to: "hand.coins")
    let lines = CatalogEditingCorpus.lines(editor.bytes)
    let price = try XCTUnwrap(lines.firstIndex { $0.contains(#""displayPrice": "1.50""#) })
    XCTAssertEqual(lines[price + 1], #"            "familyShareable": true,"#)

    let minified = Array(try Data(contentsOf: CatalogTestFiles.fixture("hand-minified.storekit")))
    var compact = CatalogTextEditor(bytes: minified, seed: 2)
    try compact.add(.nonConsumable, id: "hand.more", edits: [])
    XCTAssertEqual(CatalogEditingCorpus.lines(compact.bytes).count, CatalogEditingCorpus.lines(minified).count, "a one-line file stays on one line")
    XCTAssertTrue(String(decoding: compact.bytes, as: UTF8.self).contains(#"},{"productID":"hand.more","type":"NonConsumable""#))
  }

  func testSubscriptionFieldsOffersAndGroups() throws {
    var editor = CatalogTextEditor(bytes: try CatalogTextEditor.newCatalog(seed: 3), seed: 3)
    try editor.add(.autoRenewableSubscription, id: "pro.monthly", edits: [.group("Pro"), .intro(CatalogEdit.offer("free:P1W"))])
    try editor.add(.autoRenewableSubscription, id: "pro.yearly", edits: [.period(SubscriptionPeriod(value: 1, unit: .year)), .price("49.99")])
    var catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "new")
    XCTAssertEqual(catalog.product("pro.monthly")?.subscription?.introductoryOffers.first?.paymentMode, .freeTrial)
    XCTAssertEqual(catalog.product("pro.yearly")?.subscription?.level, 2, "one level below the group's last")
    XCTAssertEqual(catalog.product("pro.yearly")?.subscription?.groupID, catalog.product("pro.monthly")?.subscription?.groupID)

    try editor.apply([
      .level(1), .intro(CatalogEdit.offer("pay-as-you-go:2.49:P1M:3")), .promotional(id: "save", CatalogEdit.offer("pay-up-front:5:P3M")),
      .offerCode(name: "Free month", CatalogEdit.offer("free:P1M")), .winBack(id: "back", CatalogEdit.offer("free:P1M")), .familyShareable(true),
    ], to: "pro.yearly")
    catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "new")
    let yearly = try XCTUnwrap(catalog.product("pro.yearly")?.subscription)
    XCTAssertEqual(yearly.level, 1)
    XCTAssertEqual(yearly.introductoryOffers.first?.numberOfPeriods, 3)
    XCTAssertEqual(yearly.promotionalOffers.map(\.id), ["save"])
    XCTAssertEqual(yearly.codeOffers.map(\.referenceName), ["Free month"])
    XCTAssertEqual(yearly.winBackOffers.count, 1)
    XCTAssertEqual(catalog.product("pro.yearly")?.familyShareable, true)

    try editor.apply([.intro(nil), .promotional(id: "save", nil), .group("Max")], to: "pro.yearly")
    catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "new")
    XCTAssertEqual(catalog.product("pro.yearly")?.subscription?.introductoryOffers, [])
    XCTAssertEqual(catalog.product("pro.yearly")?.subscription?.promotionalOffers, [])
    XCTAssertEqual(catalog.subscriptionGroups.map(\.name), ["Pro", "Max"])
    XCTAssertEqual(catalog.group(try XCTUnwrap(catalog.product("pro.yearly")?.subscription?.groupID))?.name, "Max")

    try editor.duplicate("pro.monthly", as: "pro.monthly.copy")
    catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "new")
    let original = try XCTUnwrap(catalog.product("pro.monthly"))
    let copy = try XCTUnwrap(catalog.product("pro.monthly.copy"))
    XCTAssertEqual(copy.referenceName, original.referenceName + " copy")
    XCTAssertNotEqual(copy.internalID, original.internalID)
    XCTAssertNotEqual(copy.subscription?.introductoryOffers.first?.id, original.subscription?.introductoryOffers.first?.id)
    try editor.apply([.productID("pro.monthly.2")], to: "pro.monthly.copy")
    XCTAssertNotNil(try CatalogDecoder().decode(Data(editor.bytes), path: "new").product("pro.monthly.2"))
  }

  func testANewCatalogIsXcodesLayoutAndItsSettingsAreChecked() throws {
    let bytes = try CatalogTextEditor.newCatalog(storefront: "kor", locale: "ko_KR", seed: 4)
    let catalog = try CatalogDecoder().decode(Data(bytes), path: "new")
    XCTAssertEqual(catalog.formatVersion, .init(major: 4, minor: 0))
    XCTAssertEqual(catalog.settings.storefront, "KOR")
    XCTAssertEqual(catalog.settings.locale, "ko_KR")
    XCTAssertEqual(catalog.identifier?.count, 8)
    let text = String(decoding: bytes, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("{\n  \"appPolicies\" : {\n"), text)
    XCTAssertTrue(text.contains("\"products\" : [\n\n  ],"), text)
    XCTAssertTrue(text.hasSuffix("  \"version\" : {\n    \"major\" : 4,\n    \"minor\" : 0\n  }\n}\n"), text)
    XCTAssertEqual(try CatalogTextEditor.newCatalog(seed: 4), try CatalogTextEditor.newCatalog(seed: 4), "the identifier comes from the seed")

    var editor = CatalogTextEditor(bytes: bytes)
    try editor.set(.storefront("deu"))
    try editor.set(.askToBuy(true))
    try editor.set(.timeRate(1002))
    let loaded = try CatalogDecoder().decode(Data(editor.bytes), path: "new")
    XCTAssertEqual(loaded.settings.storefront, "DEU")
    XCTAssertTrue(loaded.settings.askToBuyEnabled)
    XCTAssertEqual(loaded.settings.timeRate, 1002)
    XCTAssertThrowsError(try editor.set(.storefront("USB"))) { XCTAssertTrue("\($0)".contains("did you mean 'USA'"), "\($0)") }
    XCTAssertThrowsError(try editor.set(.locale("xx_QQ"))) { XCTAssertEqual($0 as? CatalogTextEditor.Failure, .unknownLocale("xx_QQ")) }
    XCTAssertThrowsError(try editor.set(.timeRate(7)))
    XCTAssertThrowsError(try CatalogTextEditor.newCatalog(storefront: "ZZZ", seed: 1))
  }

  func testBadAddsAndEditsChangeNothing() throws {
    var editor = CatalogTextEditor(bytes: try CatalogTextEditor.newCatalog(seed: 5), seed: 5)
    try editor.add(.consumable, id: "coins", edits: [])
    let before = editor.bytes
    XCTAssertThrowsError(try editor.add(.nonConsumable, id: "coins")) { XCTAssertEqual($0 as? CatalogTextEditor.Failure, .duplicateProduct("coins")) }
    XCTAssertThrowsError(try editor.add(.consumable, id: "has space")) { XCTAssertTrue("\($0)".contains("no spaces"), "\($0)") }
    XCTAssertThrowsError(try CatalogTextEditor.kind(named: "consumabel")) { XCTAssertTrue("\($0)".contains("did you mean 'consumable'"), "\($0)") }
    XCTAssertThrowsError(try editor.add(.autoRenewableSubscription, id: "sub")) {
      XCTAssertEqual($0 as? CatalogTextEditor.Failure, .groupNeeded(product: "sub", groups: []))
    }
    XCTAssertThrowsError(try editor.apply([.price("2"), .period(SubscriptionPeriod(value: 1, unit: .month))], to: "coins")) {
      XCTAssertEqual($0 as? CatalogTextEditor.Failure, .notASubscription(product: "coins", key: "period"))
    }
    XCTAssertThrowsError(try editor.apply([.name("x", locale: "xx_QQ")], to: "coins"))
    try editor.add(.consumable, id: "gems")
    XCTAssertThrowsError(try editor.apply([.productID("coins")], to: "gems")) { XCTAssertEqual($0 as? CatalogTextEditor.Failure, .duplicateProduct("coins")) }
    try editor.remove("gems")
    CatalogEditingCorpus.assertSameBytes(editor.bytes, before, "a failed apply changes nothing, not even its first edits")
    for bad in ["price=-1", "price=abc", "period=P5M", "level=0", "intro=free", "intro=half:P1M", "family-shareable=maybe", "name@xx_QQ=a", "colour=red", "promo=free:P1W", "price"] {
      XCTAssertThrowsError(try CatalogEdit.parse(bad), bad)
    }
    XCTAssertEqual(try CatalogEdit.parse("name@ko=코인"), .name("코인", locale: "ko"))
    XCTAssertEqual(try CatalogEdit.parse("intro=none"), .intro(nil))
  }
}
