import Foundation
import StoreEngine

/// `storefront catalog remove FILE PRODUCT_ID`: removes a product and only its bytes.
enum CatalogRemoveCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "remove"],
    arguments: "FILE PRODUCT_ID",
    summary: "Remove a product from a .storekit file.",
    discussion: """
      Removes the product's entry with its comma; a subscription group it leaves empty stays. The previous \
      version is kept as .FILE.bak. Exit 65 for an unknown product (nothing is written).
      """,
    options: [],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let operands = invocation.operands
    guard operands.count == 2 else {
      throw invocation.usageError("catalog remove needs FILE and PRODUCT_ID.", for: descriptor)
    }
    let (path, product) = (operands[0], operands[1])
    _ = try CatalogEditRun.run(path) { (editor) throws(CatalogTextEditor.Failure) in try editor.remove(product) }
    invocation.io.line("\(path): removed \(product) (previous version: \(CatalogFile.backupName(of: path)))")
    return .success
  }
}
