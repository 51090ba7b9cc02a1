/// Where a key binding applies.
///
/// While a sheet is up it takes every key, so only its ``sheet(_:)`` scope is looked up. Otherwise
/// the focused pane's scope is looked up first, then ``global``; a pane never rebinds a global key
/// (the tests check it), so the order only decides speed.
public enum KeyScope: CaseIterable, Hashable, Sendable {
  /// Every pane, while no sheet is up.
  case global
  /// One pane, while it has the focus and no sheet is up.
  case pane(Pane)
  /// The sheets of one kind, while one of them is up.
  case sheet(SheetKind)

  /// The scope whose keys apply to `state`: its sheet's, else its focused pane's.
  public init(_ state: AppState) {
    if let sheet = state.sheet {
      self = .sheet(SheetKind(sheet))
    } else {
      self = .pane(state.focus)
    }
  }

  /// The scopes a key is looked up in, most specific first.
  var lookupOrder: [KeyScope] {
    switch self {
    case .global, .sheet: [self]
    case .pane: [self, .global]
    }
  }

  /// Every scope, in the order the help overlay lists them.
  public static var allCases: [KeyScope] {
    [.global] + Pane.allCases.map(KeyScope.pane) + SheetKind.allCases.map(KeyScope.sheet)
  }

  /// The help overlay's section title.
  public var title: String {
    switch self {
    case .global: "Everywhere"
    case .pane(let pane): pane.title
    case .sheet(let kind): kind.title
    }
  }
}

/// Sheets that answer to the same keys.
public enum SheetKind: CaseIterable, Hashable, Sendable {
  /// A question: the purchase sheet, Ask to Buy's message, "Quit Storefront?", "Clear history?".
  case question
  /// A form with text fields: sign-in and export.
  case form
  /// Text to read and scroll: the help overlay, the decoded JWS and a server request.
  case reader
  /// The Catalog pane's forms: many fields, some picked with ←/→.
  case editor

  /// The kind of `sheet`.
  public init(_ sheet: Sheet) {
    switch sheet {
    case .purchase, .askToBuy, .confirm: self = .question
    case .signIn, .export, .notificationURL: self = .form
    case .help, .jws, .request: self = .reader
    case .catalogForm: self = .editor
    }
  }

  /// Whether printable keys the table does not bind are typed into a field.
  public var acceptsText: Bool { self == .form || self == .editor }

  /// The help overlay's section title.
  public var title: String {
    switch self {
    case .question: "Sheets: purchase and other questions"
    case .form: "Sheets: sign-in and export fields"
    case .reader: "Sheets: help, signed transactions and requests"
    case .editor: "Sheets: the catalog editor's forms"
    }
  }
}
