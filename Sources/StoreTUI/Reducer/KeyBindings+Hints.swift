extension KeyBindings {
  /// One part of a hint bar: the keys of some intents, then a word, as in `↑↓ PgUp/PgDn scroll`.
  ///
  /// The keys come from the table (each binding's ``KeyBinding/keys``, not its alternates). The keys
  /// of one group are joined with `/` (`a/d`), arrows written together (`↑↓`, `Enter/←→`); groups
  /// are separated by a space (`+ ]`).
  package struct Hint {
    /// Groups of intents whose keys are written together.
    package var groups: [[KeyIntent]]
    /// What the keys do, in a word or two.
    package var word: String

    init(_ groups: [[KeyIntent]], _ word: String) {
      self.groups = groups
      self.word = word
    }
  }

  /// What the hint bar names in each scope, most useful first (the bar is cut at the screen's edge).
  package static func hints(for scope: KeyScope) -> [Hint] {
    let move = Hint([[.moveUp, .moveDown]], "move")
    let scroll = Hint([[.moveUp, .moveDown], [.pageUp, .pageDown]], "scroll")
    let pane = Hint([[.nextPane]], "pane")
    let help = Hint([[.help]], "help")
    let quit = Hint([[.quit]], "quit")
    switch scope {
    case .global:
      return []
    case .pane(.store):
      let clock = Hint([[.advanceClock(3_600)], [.advanceClock(86_400)]], "clock")
      return [move, Hint([[.buy]], "buy"), Hint([[.restore]], "restore"), pane, clock, help, quit]
    case .pane(.transactions):
      return [
        Hint([[.finish]], "finish"), Hint([[.approve, .decline]], "approve/decline"), Hint([[.resolve]], "resolve"),
        Hint([[.refund]], "refund"), Hint([[.viewJWS]], "view"), Hint([[.exportJWS]], "export"), help,
      ]
    case .pane(.settings):
      return [move, Hint([[.nextValue, .previousValue]], "change"), pane, help, quit]
    case .pane(.log):
      return [
        scroll, Hint([[.panLeft, .panRight]], "pan"), Hint([[.bottom]], "follow"), Hint([[.toggleLogAPI]], "SK1/SK2"),
        pane, help, quit,
      ]
    case .pane(.server):
      return [move, Hint([[.openRequest]], "open"), Hint([[.toggleNotifications]], "notifications"), Hint([[.redeliver]], "redeliver"), pane, help, quit]
    case .pane(.catalog):
      return [
        move, Hint([[.editCatalogEntry]], "edit"), Hint([[.addProduct]], "add"), Hint([[.duplicateProduct]], "duplicate"),
        Hint([[.deleteProduct]], "delete"), Hint([[.moveLevel(-1), .moveLevel(1)]], "level"), Hint([[.reloadCatalog]], "reload"), help,
      ]
    case .sheet(.editor):
      return [Hint([], "Type to edit"), Hint([[.nextField]], "next field"), Hint([[.nextValue]], "pick"), Hint([[.confirm]], "save"), Hint([[.cancel]], "cancel")]
    case .sheet(.question):
      return [Hint([[.confirm]], "confirm"), Hint([[.cancel]], "cancel")]
    case .sheet(.form):
      return [Hint([], "Type to edit"), Hint([[.nextField]], "next field"), Hint([[.confirm]], "confirm"), Hint([[.cancel]], "cancel")]
    case .sheet(.reader):
      return [scroll, Hint([[.close]], "close")]
    }
  }

  /// The one-line hint for the bottom bar in `scope`, e.g. `↑↓ move  Enter buy  … q quit`.
  public static func hint(for scope: KeyScope) -> String {
    hintTexts[scope] ?? ""
  }

  /// Every scope's hint, built once (the bar is drawn on every frame).
  private static let hintTexts: [KeyScope: String] = Dictionary(
    uniqueKeysWithValues: KeyScope.allCases.map { scope in
      (scope, hints(for: scope).map { text(of: $0, in: scope) }.joined(separator: "  "))
    })

  /// A hint's text; an intent that is not bound in `scope` contributes no keys (the tests check
  /// that every one is bound).
  static func text(of hint: Hint, in scope: KeyScope) -> String {
    let keys = hint.groups.map { group in
      keysText(group.flatMap { binding(for: $0, in: scope)?.keys ?? [] })
    }
    return (keys + [hint.word]).joined(separator: " ")
  }

  /// `keys` joined with `/`, runs of arrows written together in the order ↑↓←→.
  static func keysText(_ keys: [Key]) -> String {
    var parts: [String] = []
    var arrows: [Key] = []
    func flushArrows() {
      guard !arrows.isEmpty else { return }
      parts.append(arrows.sorted { (arrowOrder($0) ?? 0) < (arrowOrder($1) ?? 0) }.map(\.description).joined())
      arrows = []
    }
    for key in keys {
      if arrowOrder(key) != nil {
        arrows.append(key)
      } else {
        flushArrows()
        parts.append(key.description)
      }
    }
    flushArrows()
    return parts.joined(separator: "/")
  }

  private static func arrowOrder(_ key: Key) -> Int? {
    switch key {
    case .up: 0
    case .down: 1
    case .left: 2
    case .right: 3
    default: nil
    }
  }
}
