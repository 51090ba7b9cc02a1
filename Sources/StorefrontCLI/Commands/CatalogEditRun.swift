import Foundation
import StoreEngine

/// What `catalog set`, `add` and `remove` share: open the file (66), refuse one that does not load
/// as it is (65, its own located problems), make the edit on its text (65 for a bad value), check
/// that the result loads, and save it atomically with a `.bak`, refusing when another process
/// changed the file meanwhile (75) or it became read-only (73).
enum CatalogEditRun {
  /// Runs `edit` on `path`'s text and saves the result; returns what changed, for the one-line report.
  static func run(
    _ path: String, _ edit: (inout CatalogTextEditor) throws(CatalogTextEditor.Failure) -> Void
  ) throws(CLIFailure) -> Bool {
    var file: CatalogFile
    do {
      file = try CatalogFile.open(path: path)
    } catch {
      if case .fileNotFound = error {
        throw CLIFailure(
          "No catalog at '\(path)'. Check the path (relative paths start at \(FileManager.default.currentDirectoryPath)), or make it with 'storefront catalog new \(path)'.",
          .noInput)
      }
      throw CLIFailure(error.description, .noInput)
    }
    var editor = CatalogTextEditor(bytes: file.bytes, seed: UInt64.random(in: .min ... .max))
    var failure: CatalogTextEditor.Failure?
    do throws(CatalogTextEditor.Failure) { try edit(&editor) } catch { failure = error }
    // The result must load: a mistake (the editor's or the value's) never reaches the file. The file
    // as it was is decoded only when something failed, to say whose problem it is (a 2 MB catalog
    // costs a decode of ~0.1 s).
    let loads = failure == nil && (try? CatalogDecoder().decode(Data(editor.bytes), path: path)) != nil
    if !loads {
      do {
        _ = try CatalogDecoder().decode(Data(file.bytes), path: path)
      } catch {
        throw CLIFailure("\(error)\n\(path) does not load as it is, so it was not edited; fix it (storefront catalog check \(path)) and run again", .dataError)
      }
      if let failure { throw CLIFailure("\(path): \(failure.description); nothing was written", .dataError) }
      do {
        _ = try CatalogDecoder().decode(Data(editor.bytes), path: path)
      } catch {
        throw CLIFailure("\(path): the edit would leave a catalog that does not load; nothing was written:\n\(error)", .dataError)
      }
    }
    guard editor.bytes != file.bytes else { return false }
    do {
      try file.save(editor.bytes)
    } catch {
      if case .changedOnDisk = error { throw CLIFailure(error.description, .temporaryFailure) }
      throw CLIFailure(error.description, .cannotCreate)
    }
    return true
  }

  /// The `key=value` operands, parsed.
  static func edits(_ operands: some Sequence<String>, path: String, invocation: Invocation, descriptor: CommandDescriptor) throws(CLIFailure) -> [CatalogEdit] {
    var edits: [CatalogEdit] = []
    for pair in operands {
      guard pair.contains("=") else {
        throw invocation.usageError("'\(pair)' is not key=value; write, for example, price=1.99.", for: descriptor)
      }
      do { edits.append(try CatalogEdit.parse(pair)) } catch { throw CLIFailure("\(path): \(error.description); nothing was written", .dataError) }
    }
    return edits
  }

  /// The keys, one per line, for `--help`.
  static var keyHelp: String {
    CatalogEdit.keys.map { "  \($0.key.padding(toLength: 22, withPad: " ", startingAt: 0)) \($0.value)" }.joined(separator: "\n")
  }
}
