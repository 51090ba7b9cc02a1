import StoreTUI

/// Stand-in frames for the byte counts until the app's `render(state, size)` is merged: a product
/// table filling a 200×60 screen (title, header, one row per product with name, id, price and a
/// status/Buy column, a log line and a key bar), in the styles the TUI uses.
enum FrameContent {
  static let size = Size(width: 200, height: 60)

  /// The table with every row showing `Buy`, except `purchasedRow` (if any) showing `Purchased`.
  static func table(purchasedRow: Int? = nil) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size)
    buffer.write(" Storefront — Bench10000.storekit — Sandbox — tester ", x: 0, y: 0, style: .reverse)
    buffer.write(
      "  Product                                   Identifier                                         Type              Price      Status",
      x: 0, y: 2, style: .bold)
    for row in 0..<52 {
      let y = row + 3
      let name = "Coins pack \(row * 2)".padding(toLength: 40, withPad: " ", startingAt: 0)
      let identifier = "com.bench.storefront.item\(row * 2)".padding(toLength: 50, withPad: " ", startingAt: 0)
      buffer.write("  \(name)  \(identifier) Consumable        $\(["0.99", "1.99", "2.99", "4.99"][row % 4])", x: 0, y: y, style: row == 0 ? .reverse : .plain)
      if row == purchasedRow {
        buffer.write("✓ Purchased", x: 133, y: y, style: .success)
      } else {
        buffer.write("[ Buy ]", x: 133, y: y, style: .accent)
      }
    }
    buffer.write("updated 1000000001 com.bench.storefront.item0 purchased", x: 1, y: 57, style: .muted)
    buffer.write(" ↑↓ move  Enter buy  r restore  f finish  s settings  q quit ", x: 0, y: 59, style: .reverse)
    return buffer
  }
}
