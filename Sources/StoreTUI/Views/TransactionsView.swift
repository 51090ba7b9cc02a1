import StoreEngine

/// The Transaction Manager: the queue and the history of the signed-in account.
enum TransactionsView {
  static let layout = TableLayout(columns: [
    TableColumn("Transaction", width: .fit(min: 4, max: 20)),
    TableColumn("Product", width: .flexible(min: 8)),
    TableColumn("State", width: .fit(min: 5, max: 48)),
    TableColumn("Purchased", width: .fit(min: 9, max: 16)),
    TableColumn("Expires", width: .fit(min: 7, max: 16)),
    TableColumn("Fin.", width: .fixed(4)),
  ])

  static func cells(_ state: AppState, _ transaction: PaymentTransaction) -> [String] {
    // Another app's unfinished transaction says whose it is: that app hears and finishes it.
    let owner = transaction.isFinished ? nil : state.otherApp(of: transaction)
    return [
      transaction.id.description, productText(state, transaction), stateText(transaction) + (owner.map { " · \($0)'s" } ?? ""),
      DateText.short(transaction.purchaseDate), transaction.expiresDate.map(DateText.short) ?? "",
      transaction.isFinished ? "yes" : "no",
    ]
  }

  /// The product column: a bundle's component transaction sits under its bundle's (the row
  /// before it, in insertion order), indented, naming the bundle (§47).
  static func productText(_ state: AppState, _ transaction: PaymentTransaction) -> String {
    let name = state.displayName(of: transaction.productID)
    guard let bundle = transaction.bundle, bundle.isComponent, let product = bundle.productID else { return name }
    // A suite's subscriptions are no products of the catalog: the suite names them.
    let included = state.product(product)?.subscription?.bundledSubscriptions.firstIndex { $0.productID == transaction.productID }
    let own = included.map { state.bundledNames(of: product)[$0] } ?? name
    return "└ \(own) (in \(state.displayName(of: product)))"
  }

  /// The state column: StoreKit's state plus what matters about it.
  static func stateText(_ transaction: PaymentTransaction) -> String {
    if transaction.revocationDate != nil {
      return transaction.revocationReason == PaymentTransaction.upgradedToBundleRevocationReason ? "switched to bundle" : "refunded"
    }
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

  /// Draws the window of the history the state holds; a row outside it (the runtime has not read
  /// that page yet) is left blank.
  static func draw(_ state: AppState, layout appLayout: AppLayout, probe: RenderProbe?, in canvas: inout Canvas) {
    let history = state.history
    let unfinished = state.unfinishedTransactions.count
    let owner = state.account.map { "'\($0)'" } ?? "Not signed in"
    // A newcomer's question: why is it unfinished? Because this app finishes manually.
    let why = unfinished > 0 && state.appFinisher.mode == .manually ? " (manual: f finishes)" : ""
    canvas.text(" \(owner) · queue: \(unfinished) unfinished\(why) · history: \(history.total) transactions", x: 0, y: 0, style: .muted)
    let viewport = ScrollViewport(
      firstRow: state.scroll(of: .transactions).firstRow, visibleRows: appLayout.visibleRows(.transactions))
    let range = viewport.visibleRange(count: history.total)
    let shown = range.compactMap { index in history.row(at: index).map { (index, $0) } }
    let rows = shown.map { _, transaction -> [String] in
      probe?.transactionRowsFormatted += 1
      return cells(state, transaction)
    }
    let widths = layout.columnWidths(totalWidth: canvas.size.width, rows: rows)
    layout.drawHeader(in: &canvas, y: 1, widths: widths, style: Style([.bold, .underline]))
    if history.total == 0 {
      let message = state.account == nil
        ? "Not signed in: press i to sign in and see the account's transactions."
        : "No transactions yet: buy something in the Store pane (1)."
      canvas.text(message, x: 1, y: 2, style: .muted)
    }
    let selection = state.scroll(of: .transactions).selection
    for (offset, (index, transaction)) in shown.enumerated() {
      let row = TableRow(
        rows[offset], style: index == selection ? .reverse : .plain,
        cellStyles: [.muted, nil, role(transaction).map { Style(color: $0) }, nil, nil, nil])
      layout.drawRow(row, in: &canvas, y: 2 + index - range.lowerBound, widths: widths)
    }
  }
}
