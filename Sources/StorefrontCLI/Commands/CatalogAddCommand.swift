import Foundation
import StoreEngine

/// `storefront catalog add FILE TYPE PRODUCT_ID [key=value …]`: adds a product in the file's own
/// indentation and key order.
enum CatalogAddCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "add"],
    arguments: "FILE TYPE PRODUCT_ID [key=value...]",
    summary: "Add a product to a .storekit file.",
    discussion: """
      TYPE is consumable, non-consumable, non-renewing or auto-renewable. The product is added after the last \
      of its kind, laid out as the file's other products are; nothing else in the file changes. It starts at \
      price 0.99 with one localization in the catalog's locale; an auto-renewable subscription goes into the \
      group named by group=NAME (a new name makes the group; with one group in the file, that one), one level \
      below the group's last, renewing monthly. The keys are those of catalog set. Exit 65 for a duplicate id, \
      an unknown type or a bad value (nothing is written).

      Keys:
      \(CatalogEditRun.keyHelp)
      """,
    options: [],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let operands = invocation.operands
    guard operands.count >= 3 else {
      throw invocation.usageError("catalog add needs FILE, TYPE and PRODUCT_ID, such as: catalog add Store.storekit consumable com.example.coins price=0.99", for: descriptor)
    }
    let (path, type, product) = (operands[0], operands[1], operands[2])
    let kind: ProductKind
    do { kind = try CatalogTextEditor.kind(named: type) } catch { throw CLIFailure("\(path): \(error.description); nothing was written", .dataError) }
    let edits = try CatalogEditRun.edits(operands.dropFirst(3), path: path, invocation: invocation, descriptor: descriptor)
    _ = try CatalogEditRun.run(path) { (editor) throws(CatalogTextEditor.Failure) in try editor.add(kind, id: product, edits: edits) }
    invocation.io.line("\(path): added \(type) \(product) (previous version: \(CatalogFile.backupName(of: path)))")
    return .success
  }
}
