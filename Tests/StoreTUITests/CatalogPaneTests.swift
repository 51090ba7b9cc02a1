import Foundation
import StoreEngine
import StoreTUI
import Testing

/// The Catalog pane's reducer (issue 26): forms open on the selected row, check what is typed with
/// the editor's and `catalog check`'s words, and save only a file that loads; the built-in catalog
/// and a file changed on disk are not edited; a loaded file becomes the Store pane's products.
@Suite struct CatalogPaneTests {
  /// A state whose Catalog pane edits a new file holding one consumable.
  func editing() throws -> AppState {
    var editor = CatalogTextEditor(bytes: try CatalogTextEditor.newCatalog(seed: 1), seed: 1)
    try editor.add(.consumable, id: "com.example.coins", edits: [.price("0.99"), .name("100 Coins", locale: nil)])
    try editor.add(.autoRenewableSubscription, id: "com.example.plus", edits: [.group("Plus")])
    let catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "Store.storekit")
    var state = makeState(catalog: catalog, size: Size(width: 120, height: 32))
    _ = reduce(into: &state, action: .catalogOpened(CatalogEditor(path: "/tmp/Store.storekit", bytes: editor.bytes, catalog: catalog, seed: 2)))
    _ = reduce(into: &state, action: .key(.char("6")))
    #expect(state.focus == .catalog)
    return state
  }

  func form(_ state: AppState) -> CatalogForm? {
    if case .catalogForm(let form) = state.sheet { form } else { nil }
  }

  func type(_ text: String, _ state: inout AppState) {
    for character in text { _ = reduce(into: &state, action: .key(.char(character))) }
  }

  @Test func theSettingsRowNamesTheTimeRateNotItsNumber() throws {
    let state = try editing()
    let screen = render(state)
    let rows = (0..<screen.size.height).map { screen.row($0).text }
    #expect(rows.contains { $0.contains("time rate real-time") }, "\(rows)")
    #expect(!rows.contains { $0.contains("time rate 0") })
    // The whole settings row fits 100 columns.
    var narrow = state
    _ = reduce(into: &narrow, action: .resized(Size(width: 100, height: 24)))
    let shown = render(narrow)
    let settings = try #require((0..<shown.size.height).map { shown.row($0).text }.first { $0.contains("Settings:") })
    #expect(settings.hasSuffix("failures off"), "\(settings)")
  }

  @Test func aLongIdIsCutShortOfItsColumnNotRunIntoThePrice() throws {
    var editor = CatalogTextEditor(bytes: try CatalogTextEditor.newCatalog(seed: 1), seed: 1)
    let long = "com.example.an.exceptionally.long.product.identifier"
    try editor.add(.consumable, id: long, edits: [.price("12.99")])
    let catalog = try CatalogDecoder().decode(Data(editor.bytes), path: "Store.storekit")
    var state = makeState(catalog: catalog, size: Size(width: 100, height: 24))
    _ = reduce(into: &state, action: .catalogOpened(CatalogEditor(path: "/tmp/Store.storekit", bytes: editor.bytes, catalog: catalog, seed: 2)))
    _ = reduce(into: &state, action: .key(.char("6")))
    let screen = render(state)
    let row = try #require((0..<screen.size.height).map { screen.row($0).text }.first { $0.contains("com.example.an.") })
    #expect(row.contains(" 12.99"), "\(row)")
  }

  @Test func aProductAddedInTheFormIsSavedAsOneCommandWhoseFileLoads() throws {
    var state = try editing()
    _ = reduce(into: &state, action: .key(.char("a")))
    #expect(form(state)?.title == "Add a Product")
    _ = reduce(into: &state, action: .key(.right))  // non-consumable
    _ = reduce(into: &state, action: .key(.tab))
    type("com.example.unlock", &state)
    _ = reduce(into: &state, action: .key(.tab))
    type("4.99", &state)  // replaces the 0.99 the field had
    #expect(form(state)?.text("price") == "4.99")
    #expect(form(state)?.problem == nil)
    let commands = reduce(into: &state, action: .key(.enter))
    guard case .saveCatalog(let bytes, let summary)? = commands.first else { Issue.record("\(commands)"); return }
    #expect(summary == "added non-consumable com.example.unlock")
    let saved = try CatalogDecoder().decode(Data(bytes), path: "Store.storekit")
    #expect(saved.product("com.example.unlock")?.kind == .nonConsumable)
    #expect(saved.product("com.example.unlock")?.price == Decimal(string: "4.99"))
    // The form stays up until the runtime says the file was written.
    #expect(form(state) != nil)
    _ = reduce(into: &state, action: .catalogLoaded(bytes: bytes, catalog: saved))
    _ = reduce(into: &state, action: .commandSucceeded(.saveCatalog(bytes: bytes, summary: summary), message: "Saved"))
    #expect(state.sheet == nil)
    #expect(state.products.map(\.id).contains("com.example.unlock"), "the Store pane sells the saved catalog")
  }

  @Test func aBadValueIsNamedAsItIsTypedAndNothingIsSaved() throws {
    var state = try editing()
    _ = reduce(into: &state, action: .key(.char("a")))
    _ = reduce(into: &state, action: .key(.tab))
    type("com.example.coins", &state)
    #expect(form(state)?.problem?.contains("product 'com.example.coins' is already in the catalog") == true)
    for _ in 0..<"com.example.coins".count { _ = reduce(into: &state, action: .key(.backspace)) }
    type("com.example.gems", &state)
    _ = reduce(into: &state, action: .key(.tab))
    type("-1", &state)
    #expect(form(state)?.problem?.contains("price '-1' is not a price") == true)
    #expect(reduce(into: &state, action: .key(.enter)).isEmpty)
    #expect(form(state) != nil)
    // A subscription's group and a locale that does not exist.
    _ = reduce(into: &state, action: .key(.escape))
    _ = reduce(into: &state, action: .key(.char("a")))
    for _ in 0..<3 { _ = reduce(into: &state, action: .key(.right)) }
    #expect(form(state)?.text("type") == "auto-renewable")
    _ = reduce(into: &state, action: .key(.tab))
    type("com.example.plus.yearly", &state)
    #expect(form(state)?.problem == nil, "the catalog's only group is the default")
    for _ in 0..<7 { _ = reduce(into: &state, action: .key(.tab)) }
    type("half:P1M", &state)
    #expect(form(state)?.problem?.contains("'half' is not a payment mode") == true)
  }

  @Test func editingWritesOnlyTheChangedFields() throws {
    var state = try editing()
    let rows = state.catalogEditor.rows
    let coins = try #require(rows.firstIndex(of: .product("com.example.coins")))
    for _ in 0..<coins { _ = reduce(into: &state, action: .key(.down)) }
    _ = reduce(into: &state, action: .key(.enter))
    #expect(form(state)?.title == "Edit com.example.coins")
    // Saving a form with nothing changed writes nothing: the file stays byte for byte.
    #expect(reduce(into: &state, action: .key(.enter)).isEmpty)
    #expect(form(state)?.problem == "Nothing changed.")
    _ = reduce(into: &state, action: .key(.tab))
    _ = reduce(into: &state, action: .key(.tab))
    type("1.29", &state)
    let commands = reduce(into: &state, action: .key(.enter))
    guard case .saveCatalog(let bytes, let summary)? = commands.first else { Issue.record("\(commands)"); return }
    #expect(summary == "com.example.coins: price")
    let before = String(decoding: state.catalogEditor.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let after = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(before.count == after.count)
    #expect(zip(before, after).filter { $0 != $1 }.count == 1)
  }

  @Test func deleteAsksFirstAndLevelsMove() throws {
    var state = try editing()
    let plus = try #require(state.catalogEditor.rows.firstIndex(of: .product("com.example.plus")))
    for _ in 0..<plus { _ = reduce(into: &state, action: .key(.down)) }
    let moved = reduce(into: &state, action: .key(.char(">")))
    guard case .saveCatalog(let bytes, _)? = moved.first else { Issue.record("\(moved)"); return }
    #expect(try CatalogDecoder().decode(Data(bytes), path: "x").product("com.example.plus")?.subscription?.level == 2)
    #expect(reduce(into: &state, action: .key(.char("x"))).isEmpty)
    guard case .confirm(let question)? = state.sheet, case .saveCatalog(let removed, _) = question.command else { Issue.record("\(String(describing: state.sheet))"); return }
    #expect(try CatalogDecoder().decode(Data(removed), path: "x").product("com.example.plus") == nil)
    let duplicate = { () -> [AppCommand] in
      var copy = state
      copy.sheet = nil
      return reduce(into: &copy, action: .key(.char("d")))
    }()
    guard case .saveCatalog(let duplicated, _)? = duplicate.first else { Issue.record("\(duplicate)"); return }
    #expect(try CatalogDecoder().decode(Data(duplicated), path: "x").product("com.example.plus.copy") != nil)
  }

  @Test func theBuiltInCatalogAndAFileChangedOnDiskAreNotEdited() throws {
    var builtIn = makeState()
    _ = reduce(into: &builtIn, action: .key(.char("6")))
    #expect(reduce(into: &builtIn, action: .key(.char("a"))).isEmpty)
    #expect(builtIn.sheet == nil)
    #expect(builtIn.notice?.text.contains("The built-in catalog is not a file") == true)

    var state = try editing()
    _ = reduce(into: &state, action: .catalogChangedOnDisk(true))
    #expect(state.notice?.text.contains("changed on disk") == true)
    #expect(reduce(into: &state, action: .key(.char("a"))).isEmpty)
    #expect(state.sheet == nil)
    #expect(reduce(into: &state, action: .key(.char("R"))) == [.reloadCatalog])
    // The settings form checks a storefront as it is typed.
    _ = reduce(into: &state, action: .catalogChangedOnDisk(false))
    _ = reduce(into: &state, action: .key(.home))
    _ = reduce(into: &state, action: .key(.enter))
    #expect(form(state)?.title == "Catalog Settings")
    type("USB", &state)
    #expect(form(state)?.problem?.contains("did you mean 'USA'") == true)
  }

  @Test func thePaneDrawsTheTree() throws {
    let state = try editing()
    let screen = render(state).plainText
    #expect(screen.contains("6 Catalog"))
    #expect(screen.contains("Products (1)"))
    #expect(screen.contains("Group Plus (1)"))
    #expect(screen.contains("com.example.coins"))
  }
}
