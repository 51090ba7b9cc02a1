import StoreEngine

/// The Catalog pane: the file, then the catalog as a tree (settings, products, non-renewing
/// subscriptions, each group's subscriptions by level), one row each.
enum CatalogView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    let editor = state.catalogEditor
    let file: String
    if editor.path == nil {
      file = " The built-in catalog (read-only): storefront catalog new Store.storekit, then storefront --catalog Store.storekit, to edit one."
    } else if editor.changedOnDisk {
      file = " \(editor.path ?? "") changed on disk — R reloads it"
    } else {
      file = " \(editor.path ?? "") · format \(editor.catalog.formatVersion) · \(editor.catalog.products.count) product\(editor.catalog.products.count == 1 ? "" : "s")"
    }
    canvas.text(file, x: 0, y: 0, width: canvas.size.width, style: editor.changedOnDisk ? Style(color: .error) : .muted)
    canvas.text(" " + "  Type".padded(toWidth: 18) + "Product ID".padded(toWidth: 34) + "Price".padded(toWidth: 10) + "Name / details", x: 0, y: 1, style: Style([.bold, .underline]))
    let rows = editor.rows
    let viewport = ScrollViewport(firstRow: state.scroll(of: .catalog).firstRow, visibleRows: layout.visibleRows(.catalog))
    let selection = state.scroll(of: .catalog).selection
    for index in viewport.visibleRange(count: rows.count) {
      let y = 2 + index - viewport.firstRow
      let selected = index == selection && state.focus == .catalog
      let base: Style = selected ? .reverse : .plain
      canvas.fill(Rect(x: 0, y: y, width: canvas.size.width, height: 1), style: base)
      canvas.text(text(of: rows[index], editor.catalog), x: 0, y: y, width: canvas.size.width, style: rows[index].isHeading ? Style(base.attributes.union(.bold)) : base)
    }
  }

  static func text(of row: CatalogEditor.Row, _ catalog: Catalog) -> String {
    switch row {
    case .settings:
      let settings = catalog.settings
      return " Settings: storefront \(settings.storefront) · locale \(settings.locale) · time rate \(TimeRate.preset(rawValue: settings.timeRate)?.name ?? String(settings.timeRate)) · Ask to Buy \(settings.askToBuyEnabled ? "on" : "off") · failures \(settings.failTransactionsEnabled ? "on" : "off")"
    case .heading(let title, _):
      return " " + title
    case .product(let id):
      guard let product = catalog.product(id) else { return "   \(id)" }
      let type = CatalogTextEditor.typeNames.first { $0.kind == product.kind }?.name ?? product.kind.label
      var details = [product.displayName(locale: catalog.settings.locale)]
      if let subscription = product.subscription {
        details.append("level \(subscription.level)")
        details.append(subscription.period.iso8601)
        if let intro = subscription.introductoryOffers.first { details.append("intro \(CatalogForm.spec(intro))") }
      }
      details.append(product.localizations.map(\.locale).joined(separator: ","))
      if product.familyShareable { details.append("family") }
      // Each column keeps one blank after it: a long id is cut short of its column, never run into the price.
      return "   " + type.padded(toWidth: 15) + " " + id.rawValue.padded(toWidth: 33) + " " + "\(product.price)".padded(toWidth: 9) + " "
        + details.joined(separator: " · ")
    }
  }
}

extension CatalogEditor.Row {
  var isHeading: Bool {
    if case .heading = self { true } else { false }
  }
}
