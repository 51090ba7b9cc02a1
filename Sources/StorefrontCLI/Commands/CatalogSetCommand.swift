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
      Keys: price (a decimal number of at least 0, such as 1.99; the product's displayPrice); \
      name[@locale] and description[@locale] (the localization of that locale, else the first one's \
      displayName and description). Only the \
      value's own bytes change: key order, spacing, line endings and unknown keys stay as the file had them. \
      The edited file must load as a catalog before it replaces the old one; the old one is kept as FILE.bak. \
      Exit 65 for a bad value or an unknown product (nothing is written), 66 when FILE cannot be read, 73 when \
      it cannot be written.
      """,
    options: [],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let operands = invocation.operands
    guard operands.count >= 3 else {
      throw invocation.usageError("catalog set needs FILE, PRODUCT_ID and at least one key=value, such as price=1.99.", for: descriptor)
    }
    let path = operands[0]
    let product = operands[1]
    var edits: [(key: String, value: String)] = []
    for pair in operands.dropFirst(2) {
      guard let equals = pair.firstIndex(of: "=") else {
        throw invocation.usageError("'\(pair)' is not key=value; write, for example, price=1.99.", for: descriptor)
      }
      let key = String(pair[..<equals])
      let base = key.split(separator: "@", maxSplits: 1).first.map(String.init) ?? key
      guard base == "price" ? key == "price" : ["name", "description"].contains(base) else {
        throw CLIFailure("\(path): unknown key '\(key)'; catalog set knows: price, name[@locale], description[@locale]", .dataError)
      }
      edits.append((key, String(pair[pair.index(after: equals)...])))
    }
    let url = URL(fileURLWithPath: path)
    let original: [UInt8]
    do {
      original = Array(try Data(contentsOf: url))
    } catch {
      throw CLIFailure("\(path): cannot be read: \(error.localizedDescription)", .noInput)
    }
    // A file that does not load is not edited: its own problems come first, located.
    do {
      _ = try CatalogDecoder().decode(Data(original), path: path)
    } catch {
      throw CLIFailure("\(error)\n\(path) does not load as it is, so it was not edited; fix it (storefront catalog check \(path)) and run catalog set again", .dataError)
    }
    var edited = original
    for edit in edits {
      do throws(CatalogTextEditor.Failure) {
        let editor = CatalogTextEditor(bytes: edited)
        let parts = edit.key.split(separator: "@", maxSplits: 1).map(String.init)
        switch parts[0] {
        case "price": edited = try editor.settingPrice(edit.value, of: product)
        case "name": edited = try editor.setting(.name, to: edit.value, locale: parts.dropFirst().first, of: product)
        default: edited = try editor.setting(.description, to: edit.value, locale: parts.dropFirst().first, of: product)
        }
      } catch {
        throw CLIFailure("\(path): \(error.description); nothing was written", .dataError)
      }
    }
    // The edit must leave a catalog that loads: a mistake in the editor never reaches the file.
    do {
      _ = try CatalogDecoder().decode(Data(edited), path: path)
    } catch {
      throw CLIFailure("\(path): the edited catalog does not load (\(error)); nothing was written", .software)
    }
    guard edited != original else {
      invocation.io.line("\(path): \(product) unchanged")
      return .success
    }
    do {
      try write(edited, to: url, keeping: original)
    } catch {
      throw CLIFailure("\(path): cannot be written: \(error.localizedDescription); the file is unchanged", .cannotCreate)
    }
    invocation.io.line("\(path): \(product) \(edits.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) (previous version: \(path).bak)")
    return .success
  }

  /// Writes `bytes` over `url` atomically (a temporary file in the same directory, then a rename),
  /// after keeping `previous` as `url.bak`.
  static func write(_ bytes: [UInt8], to url: URL, keeping previous: [UInt8]) throws {
    let directory = url.deletingLastPathComponent()
    try Data(previous).write(to: url.appendingPathExtension("bak"), options: .atomic)
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    try Data(bytes).write(to: temporary)
    if let mode = try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] {
      try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary.path)
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }
}
