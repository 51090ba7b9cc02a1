import StoreEngine

/// The product table: name, kind, price, status and a `[ Buy ]` button per row, then
/// `[ Restore Purchases ]`. Only visible rows are formatted.
enum StoreView {
  static func draw(_ state: AppState, layout: AppLayout, probe: RenderProbe?, in canvas: inout Canvas) {
    let table = StoreTable.layout
    let (rows, widths) = StoreTable.visible(state, probe: probe)
    table.drawHeader(in: &canvas, y: 0, widths: widths, style: Style([.bold, .underline]))
    if state.products.isEmpty {
      canvas.text("The catalog has no products. Start with --catalog PATH to load a .storekit file.", x: 1, y: 1, style: .muted)
    }
    let selection = state.scroll(of: .store).selection
    let buyX = table.columnOffsets(widths: widths).last ?? 0
    let firstRow = StoreTable.viewport(state).firstRow
    for (index, cells) in rows {
      let y = 1 + index - firstRow
      let selected = index == selection && state.focus == .store
      let status = state.status(of: state.products[index].id)
      let row = TableRow(
        cells, style: selected ? .reverse : .plain,
        cellStyles: [nil, .muted, nil, status.role.map { Style(color: $0) }, nil])
      table.drawRow(row, in: &canvas, y: y, widths: widths)
      canvas.button(StoreTable.buyTitle, x: buyX, y: y, style: selected ? Style([.reverse, .bold]) : .accent)
    }
    let footer = canvas.size.height - 1
    canvas.button(AppLayout.restoreTitle, x: 1, y: footer, style: .accent)
    let count = state.products.count
    let position = count == 0 ? "" : "\(selection + 1) of \(count) products "
    canvas.text(position, x: canvas.size.width - position.displayWidth, y: footer, style: .muted)
  }
}

/// The Transaction Manager: the queue and the history of the signed-in account.
enum TransactionsView {
  static let layout = TableLayout(columns: [
    TableColumn("Transaction", width: .fit(min: 4, max: 20)),
    TableColumn("Product", width: .flexible(min: 8)),
    TableColumn("State", width: .fit(min: 5, max: 24)),
    TableColumn("Purchased", width: .fit(min: 9, max: 16)),
    TableColumn("Expires", width: .fit(min: 7, max: 16)),
    TableColumn("Finished", width: .fixed(8)),
  ])

  static func cells(_ state: AppState, _ transaction: PaymentTransaction) -> [String] {
    [
      transaction.id.description, state.displayName(of: transaction.productID), stateText(transaction),
      DateText.short(transaction.purchaseDate), transaction.expiresDate.map(DateText.short) ?? "",
      transaction.isFinished ? "yes" : "no",
    ]
  }

  /// The state column: StoreKit's state plus what matters about it.
  static func stateText(_ transaction: PaymentTransaction) -> String {
    if transaction.revocationDate != nil { return "refunded" }
    if transaction.needsResolution { return "interrupted" }
    switch transaction.state {
    case .failed: return "failed: " + (transaction.error?.name ?? "unknown")
    case .purchased where transaction.reason == .renewal: return "purchased (renewal)"
    case .purchased where transaction.isUpgraded: return "purchased (upgraded)"
    default: return transaction.state.name
    }
  }

  static func role(_ transaction: PaymentTransaction) -> ColorRole? {
    if transaction.revocationDate != nil { return .muted }
    switch transaction.state {
    case .purchased, .restored: return .success
    case .purchasing, .deferred: return .warning
    case .failed: return transaction.needsResolution ? .warning : .error
    }
  }

  static func draw(_ state: AppState, layout appLayout: AppLayout, probe: RenderProbe?, in canvas: inout Canvas) {
    let all = state.transactions
    let unfinished = all.filter { !$0.isFinished }.count
    let owner = state.account.map { "'\($0)'" } ?? "Not signed in"
    canvas.text(" \(owner) · queue: \(unfinished) unfinished · history: \(all.count) transactions", x: 0, y: 0, style: .muted)
    let viewport = ScrollViewport(
      firstRow: state.scroll(of: .transactions).firstRow, visibleRows: appLayout.visibleRows(.transactions))
    let range = viewport.visibleRange(count: all.count)
    let rows = range.map { index -> [String] in
      probe?.transactionRowsFormatted += 1
      return cells(state, all[index])
    }
    let widths = layout.columnWidths(totalWidth: canvas.size.width, rows: rows)
    layout.drawHeader(in: &canvas, y: 1, widths: widths, style: Style([.bold, .underline]))
    if all.isEmpty {
      let message = state.account == nil
        ? "Not signed in: press i to sign in and see the account's transactions."
        : "No transactions yet: buy something in the Store pane (1)."
      canvas.text(message, x: 1, y: 2, style: .muted)
    }
    let selection = state.scroll(of: .transactions).selection
    for (offset, index) in range.enumerated() {
      let selected = index == selection
      let row = TableRow(
        rows[offset], style: selected ? .reverse : .plain,
        cellStyles: [.muted, nil, role(all[index]).map { Style(color: $0) }, nil, nil, nil])
      layout.drawRow(row, in: &canvas, y: 2 + offset, widths: widths)
    }
  }
}
