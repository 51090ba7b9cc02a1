import Foundation
import StoreEngine

/// `storefront catalog set FILE PRODUCT_ID key=value …`: edits a `.storekit` file in place, changing
/// only the bytes of the values it sets (``CatalogTextEditor``), written atomically with a `.bak`.
enum CatalogSetCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "set"],
    arguments: "FILE PRODUCT_ID key=value...",
    summary: "Change a product in a .storekit file, leaving every other byte as it was.",
    discussion: """
      Only the value's own bytes change (a key the product lacks is added where the file's key order puts it): \
      key order, spacing, line endings and unknown keys stay as the file had them. The edited file must load \
      as a catalog before it replaces the old one; the old one is kept as .FILE.bak. Exit 65 for a bad value or \
      an unknown product (nothing is written), 66 when FILE cannot be read, 73 when it cannot be written, 75 \
      when another process changed it meanwhile.

      Keys:
      \(CatalogEditRun.keyHelp)
      """,
    options: [],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let operands = invocation.operands
    guard operands.count >= 3 else {
      throw invocation.usageError("catalog set needs FILE, PRODUCT_ID and at least one key=value, such as price=1.99.", for: descriptor)
    }
    let (path, product) = (operands[0], operands[1])
    let edits = try CatalogEditRun.edits(operands.dropFirst(2), path: path, invocation: invocation, descriptor: descriptor)
    let changed = try CatalogEditRun.run(path) { (editor) throws(CatalogTextEditor.Failure) in try editor.apply(edits, to: product) }
    guard changed else {
      invocation.io.line("\(path): \(product) unchanged")
      return .success
    }
    invocation.io.line("\(path): \(product) \(operands.dropFirst(2).joined(separator: " ")) (previous version: \(CatalogFile.backupName(of: path)))")
    return .success
  }
}
