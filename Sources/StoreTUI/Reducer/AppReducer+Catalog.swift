import Foundation
import StoreEngine

/// The Catalog pane: its keys, its forms, and the document as the runtime reads and saves it.
extension AppReducer {
  static func catalogIntent(_ intent: KeyIntent, _ state: inout AppState) -> [AppCommand] {
    let editor = state.catalogEditor
    let rows = editor.rows
    let index = state.scroll(of: .catalog).selection
    let row = rows.indices.contains(index) ? rows[index] : nil
    if intent == .reloadCatalog {
      guard editor.path != nil else {
        state.notice = Notice("The built-in catalog has no file to reload.", kind: .error)
        return []
      }
      return [.reloadCatalog]
    }
    if let refusal = editor.refusal {
      state.notice = Notice(refusal, kind: .error)
      return []
    }
    switch (intent, row) {
    case (.addProduct, _):
      state.sheet = .catalogForm(CatalogForm.adding(in: editor.catalog))
    case (.editCatalogEntry, .settings?):
      state.sheet = .catalogForm(CatalogForm.settings(of: editor.catalog))
    case (.editCatalogEntry, .heading(_, let group?)?):
      if let group = editor.catalog.group(group) { state.sheet = .catalogForm(CatalogForm.group(group)) }
    case (.editCatalogEntry, .product(let id)?):
      if let product = editor.catalog.product(id) { state.sheet = .catalogForm(CatalogForm.editing(product, in: editor.catalog)) }
    case (.duplicateProduct, .product(let id)?):
      var text = editor.textEditor()
      var copy = id.rawValue + ".copy"
      var number = 2
      while editor.catalog.product(Product.ID(copy)) != nil {
        copy = id.rawValue + ".copy\(number)"
        number += 1
      }
      return save({ (text) throws(CatalogTextEditor.Failure) in try text.duplicate(id.rawValue, as: copy) }, &text, summary: "duplicated \(id) as \(copy) (Enter edits it)", &state)
    case (.deleteProduct, .product(let id)?):
      var text = editor.textEditor()
      do throws(CatalogTextEditor.Failure) {
        try text.remove(id.rawValue)
      } catch {
        state.notice = Notice(error.description, kind: .error)
        return []
      }
      state.sheet = .confirm(ConfirmSheet(
        title: "Delete \(id)?", message: "The product is removed from \(editor.name) (the previous version is kept as .\(editor.name).bak). Transactions already made keep it.",
        confirmTitle: "Delete", command: .saveCatalog(bytes: text.bytes, summary: "removed \(id)")))
    case (.moveLevel(let step), .product(let id)?):
      guard let level = editor.catalog.product(id)?.subscription?.level else {
        state.notice = Notice("Levels are for auto-renewable subscriptions; \(id) is not one.", kind: .error)
        return []
      }
      var text = editor.textEditor()
      let target = max(1, level + step)
      guard target != level else { return [] }
      return save({ (text) throws(CatalogTextEditor.Failure) in try text.apply([.level(target)], to: id.rawValue) }, &text, summary: "\(id) level \(target)", &state)
    case (.duplicateProduct, _), (.deleteProduct, _), (.moveLevel, _):
      state.notice = Notice("Select a product first.", kind: .error)
    default:
      break
    }
    return []
  }

  /// Makes `edit` on `text`; a save command when the result loads, else a notice.
  private static func save(
    _ edit: (inout CatalogTextEditor) throws(CatalogTextEditor.Failure) -> Void, _ text: inout CatalogTextEditor, summary: String,
    _ state: inout AppState
  ) -> [AppCommand] {
    do throws(CatalogTextEditor.Failure) {
      try edit(&text)
    } catch {
      state.notice = Notice(error.description, kind: .error)
      return []
    }
    do {
      _ = try CatalogDecoder().decode(Data(text.bytes), path: state.catalogEditor.path ?? "catalog")
    } catch {
      state.notice = Notice(error.description, kind: .error)
      return []
    }
    return [.saveCatalog(bytes: text.bytes, summary: summary)]
  }

  static func catalogFormIntent(_ intent: KeyIntent, _ form: inout CatalogForm, _ state: inout AppState) -> [AppCommand] {
    switch intent {
    case .cancel:
      state.sheet = nil
      return []
    case .confirm:
      switch form.result(on: state.catalogEditor) {
      case .success(let result):
        state.catalogEditor.seed &+= 1
        state.sheet = .catalogForm(form)
        return [.saveCatalog(bytes: result.bytes, summary: result.summary)]
      case .failure(let problem):
        form.problem = problem.message
        state.sheet = .catalogForm(form)
        return []
      }
    case .nextField: form.focus(1)
    case .previousField: form.focus(-1)
    case .nextValue: form.cycle(1)
    case .previousValue: form.cycle(-1)
    case .erase: form.erase()
    case .type(let character): form.type(character)
    default: return []
    }
    // Checked as it is typed: the problem the form has now, or none.
    if case .failure(let problem) = form.result(on: state.catalogEditor), !problem.isEmpty {
      form.problem = problem.message
    } else {
      form.problem = nil
    }
    state.sheet = .catalogForm(form)
    return []
  }

  static func catalogLoaded(_ bytes: [UInt8], _ catalog: Catalog, _ state: inout AppState) {
    let selected = state.catalogEditor.rows.indices.contains(state.scroll(of: .catalog).selection) ? state.catalogEditor.rows[state.scroll(of: .catalog).selection] : nil
    state.catalogEditor.bytes = bytes
    state.catalogEditor.catalog = catalog
    state.catalogEditor.changedOnDisk = false
    state.replaceProducts(with: catalog)
    // The selection stays on the row it was on.
    let rows = state.catalogEditor.rows
    if let selected, let row = rows.firstIndex(of: selected) { select(row, in: .catalog, &state) }
    clampAll(&state)
  }

  static func catalogChangedOnDisk(_ changed: Bool, _ state: inout AppState) {
    guard changed != state.catalogEditor.changedOnDisk else { return }
    state.catalogEditor.changedOnDisk = changed
    if changed { state.notice = Notice("\(state.catalogEditor.name) changed on disk. Press R in the Catalog pane to reload it.") }
  }
}
