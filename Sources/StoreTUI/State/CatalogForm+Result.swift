import Foundation
import StoreEngine

extension CatalogForm {
  /// What saving the form would write: the edited file's bytes and a summary for the notice, or
  /// why it cannot be saved (the editor's words, or the located problem `catalog check` would print).
  func result(on document: CatalogEditor) -> Result<(bytes: [UInt8], summary: String), CatalogFormProblem> {
    var editor = document.textEditor()
    let summary: String
    do throws(CatalogTextEditor.Failure) {
      switch purpose {
      case .edit(let product):
        let edits = try changedEdits()
        guard !edits.isEmpty else { return .failure(CatalogFormProblem(message: "Nothing changed.", isEmpty: true)) }
        try editor.apply(edits, to: product.rawValue)
        summary = "\(product): " + edits.map(\.key).joined(separator: ", ")
      case .add:
        let kind = try CatalogTextEditor.kind(named: text("type"))
        let id = text("id").trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty else { throw .invalidValue(key: "id", value: id, hint: "type the new product's id, such as com.example.coins") }
        try editor.add(kind, id: id, edits: try addEdits(kind))
        summary = "added \(CatalogTextEditor.typeNames.first { $0.kind == kind }?.name ?? "") \(id)"
      case .settings:
        var changed: [String] = []
        for field in fields where field.changed {
          try editor.set(try Self.setting(field))
          changed.append(field.label.lowercased())
        }
        guard !changed.isEmpty else { return .failure(CatalogFormProblem(message: "Nothing changed.", isEmpty: true)) }
        summary = "settings: " + changed.joined(separator: ", ")
      case .group(let id):
        let name = text("name").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .invalidValue(key: "name", value: name, hint: "a group needs a name") }
        try editor.renameGroup(id, to: name)
        summary = "group \(name)"
      }
    } catch {
      return .failure(CatalogFormProblem(message: error.description))
    }
    do {
      _ = try CatalogDecoder().decode(Data(editor.bytes), path: document.path ?? document.name)
    } catch {
      if case .issues(let issues) = error, let first = issues.first { return .failure(CatalogFormProblem(message: first.description)) }
      return .failure(CatalogFormProblem(message: error.description))
    }
    return .success((editor.bytes, summary))
  }

  /// The edits of the changed fields of an edit form (the new id last, so the others find the product).
  private func changedEdits() throws(CatalogTextEditor.Failure) -> [CatalogEdit] {
    var edits: [CatalogEdit] = []
    var rename: CatalogEdit?
    for field in fields where field.changed {
      switch field.key {
      case "id": rename = try CatalogEdit.parse(key: "id", value: field.text)
      case "new-name": continue
      case "new-locale":
        let locale = field.text.trimmingCharacters(in: .whitespaces)
        guard !locale.isEmpty else { continue }
        edits.append(try CatalogEdit.parse(key: "name@\(locale)", value: text("new-name")))
      case "more": edits += try Self.more(field.text)
      default: edits.append(try CatalogEdit.parse(key: field.key, value: field.text))
      }
    }
    if text("new-locale").trimmingCharacters(in: .whitespaces).isEmpty, fields.contains(where: { $0.key == "new-name" && $0.changed }) {
      throw .invalidValue(key: "its name", value: text("new-name"), hint: "type the locale to add it for, such as ko or ja_JP")
    }
    return edits + (rename.map { [$0] } ?? [])
  }

  private func addEdits(_ kind: ProductKind) throws(CatalogTextEditor.Failure) -> [CatalogEdit] {
    var edits = [try CatalogEdit.parse(key: "price", value: text("price"))]
    if !text("name").isEmpty { edits.append(.name(text("name"), locale: nil)) }
    if !text("description").isEmpty { edits.append(.description(text("description"), locale: nil)) }
    if text("family-shareable") == "true" { edits.append(.familyShareable(true)) }
    if kind == .autoRenewableSubscription {
      if !text("group").trimmingCharacters(in: .whitespaces).isEmpty { edits.append(try CatalogEdit.parse(key: "group", value: text("group"))) }
      edits.append(try CatalogEdit.parse(key: "period", value: text("period")))
      let intro = try CatalogEdit.parse(key: "intro", value: text("intro"))
      if intro != .intro(nil) { edits.append(intro) }
    }
    return edits + (try Self.more(text("more")))
  }

  /// `key=value` pairs separated by spaces.
  private static func more(_ text: String) throws(CatalogTextEditor.Failure) -> [CatalogEdit] {
    var edits: [CatalogEdit] = []
    for pair in text.split(separator: " ") { edits.append(try CatalogEdit.parse(String(pair))) }
    return edits
  }

  private static func setting(_ field: Field) throws(CatalogTextEditor.Failure) -> CatalogTextEditor.Setting {
    let value = field.text.trimmingCharacters(in: .whitespaces)
    switch field.key {
    case "storefront": return .storefront(value)
    case "locale": return .locale(value)
    case "time-rate":
      guard let rate = Int(value) else { throw .invalidValue(key: "time rate", value: value, hint: "a whole number such as 0") }
      return .timeRate(rate)
    case "ask-to-buy": return .askToBuy(value == "on")
    default: return .failTransactions(value == "on")
    }
  }
}

/// Why a form cannot be saved.
public struct CatalogFormProblem: Error, Equatable, Sendable {
  public var message: String
  /// Nothing was changed: not an error to show while typing.
  public var isEmpty = false
}
