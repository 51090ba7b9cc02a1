import Foundation

/// Every key the storefront understands, in one table.
///
/// The reducer looks a key up here (``intent(for:in:)``) and switches over the intent; the help
/// overlay (``helpLines``) and the hint bar (``hint(for:)``) are generated from it; and a test
/// checks that the key table of Docs/TUI.md lists exactly these keys. So what is documented is what is
/// bound. The mouse is not in the table: clicks are hit-tested against the layout.
public enum KeyBindings {
  /// The table, in the order the help overlay lists it.
  public static let all: [KeyBinding] = everywhere + panes + sheets

  /// What `key` asks for in `scope` (a pane's scope falls back to ``KeyScope/global``), or `nil`
  /// when it is not bound there. In a form, a printable key that is not bound is typed.
  public static func intent(for key: Key, in scope: KeyScope) -> KeyIntent? {
    if let intent = index[scope]?[key] { return intent }
    if case .pane = scope, let intent = index[.global]?[key] { return intent }
    if case .sheet(let kind) = scope, kind.acceptsText, case .char(let character) = key {
      return .type(character)
    }
    return nil
  }

  /// The binding that asks for `intent` in `scope` (or, for a pane, globally).
  public static func binding(for intent: KeyIntent, in scope: KeyScope) -> KeyBinding? {
    for candidate in scope.lookupOrder {
      if let binding = all.first(where: { $0.scope == candidate && $0.intent == intent }) { return binding }
    }
    return nil
  }

  /// Key → intent per scope; the first binding of a key wins (the tests check there is only one).
  private static let index: [KeyScope: [Key: KeyIntent]] = {
    var index: [KeyScope: [Key: KeyIntent]] = [:]
    for binding in all {
      for key in binding.allKeys where index[binding.scope]?[key] == nil {
        index[binding.scope, default: [:]][key] = binding.intent
      }
    }
    return index
  }()

  private static let everywhere: [KeyBinding] = [
    KeyBinding(.global, [.up], or: [.char("k")], .moveUp, help: "move the selection"),
    KeyBinding(.global, [.down], or: [.char("j")], .moveDown, help: "move the selection"),
    KeyBinding(.global, [.pageUp], .pageUp, help: "scroll a page / to the top / to the end"),
    KeyBinding(.global, [.pageDown], .pageDown, help: "scroll a page / to the top / to the end"),
    KeyBinding(.global, [.home], .top, help: "scroll a page / to the top / to the end"),
    KeyBinding(.global, [.end], .bottom, help: "scroll a page / to the top / to the end"),
    KeyBinding(.global, [.tab], .nextPane, help: "next / previous pane"),
    KeyBinding(.global, [.backTab], .previousPane, help: "next / previous pane"),
  ] + Pane.allCases.map { pane in
    KeyBinding(.global, [.char(pane.shortcut)], .focus(pane), help: "switch to that pane (5 needs --serve)")
  } + [
    KeyBinding(.global, [.char("r")], .restore, help: "restore purchases"),
    KeyBinding(.global, [.char("i")], .signIn, help: "sign in / switch sandbox account"),
    KeyBinding(.global, [.char("+")], .advanceClock(3_600), help: "advance the clock one hour"),
    KeyBinding(.global, [.char("]")], .advanceClock(86_400), help: "advance the clock one day"),
    KeyBinding(.global, [.char("}")], .advanceClock(30 * 86_400), help: "advance the clock 30 days"),
    KeyBinding(.global, [.char("L")], .relaunch, help: "relaunch the app: unfinished transactions return"),
    KeyBinding(.global, [.char("?")], or: [.function(1)], .help, help: "this help"),
    KeyBinding(.global, [.char("q")], .quit, help: "quit (asks first while a purchase is in flight)"),
  ]

  private static let panes: [KeyBinding] = [
    KeyBinding(.pane(.store), [.enter], or: [.char("b")], .buy, help: "buy the selected product"),
    KeyBinding(.pane(.store), [.char("m")], .buyMonthlyPlan, help: "buy on the monthly plan (12-month commitment)"),
    KeyBinding(.pane(.store), [.char("o")], .redeemCode, help: "redeem an offer code"),
    KeyBinding(.pane(.store), [.char("p")], .storePayment, help: "buy from the App Store page"),

    KeyBinding(.pane(.transactions), [.char("f")], .finish, help: "finish the selected transaction"),
    KeyBinding(.pane(.transactions), [.char("a")], .approve, help: "approve / decline Ask to Buy"),
    KeyBinding(.pane(.transactions), [.char("d")], .decline, help: "approve / decline Ask to Buy"),
    KeyBinding(.pane(.transactions), [.char("R")], .resolve, help: "resolve an interrupted purchase or billing issue"),
    KeyBinding(.pane(.transactions), [.char("x")], .refund, help: "refund"),
    KeyBinding(.pane(.transactions), [.char("v")], or: [.enter], .viewJWS, help: "view the signed transaction (JWS)"),
    KeyBinding(.pane(.transactions), [.char("e")], .exportJWS, help: "export the JWS to a file"),
    KeyBinding(.pane(.transactions), [.char("A")], .toggleAutoRenew, help: "toggle auto-renew"),
    KeyBinding(.pane(.transactions), [.char("m")], .cancelSubscription, help: "cancel a subscription (retention sheet)"),
    KeyBinding(.pane(.transactions), [.char("E")], .expireNow, help: "expire the subscription now"),
    KeyBinding(.pane(.transactions), [.char("N")], .renewNow, help: "renew the subscription now"),
    KeyBinding(.pane(.transactions), [.char("c")], .viewReceipt, help: "view the app receipt, decoded"),
    KeyBinding(.pane(.transactions), [.char("C")], .exportReceipt, help: "export the app receipt (PKCS#7 DER) to a file"),

    KeyBinding(.pane(.settings), [.enter, .right], or: [.char(" "), .char("l")], .nextValue, help: "toggle or next value"),
    KeyBinding(.pane(.settings), [.left], or: [.char("h")], .previousValue, help: "previous value"),

    KeyBinding(.pane(.log), [.left], or: [.char("h")], .panLeft, help: "scroll long lines left / right"),
    KeyBinding(.pane(.log), [.right], or: [.char("l")], .panRight, help: "scroll long lines left / right"),
    KeyBinding(.pane(.log), [.char("s")], .toggleLogAPI, help: "StoreKit 1 / StoreKit 2 view of the log"),

    KeyBinding(.pane(.server), [.enter], or: [.char("v")], .openRequest, help: "open the request or notification, decoded"),
    KeyBinding(.pane(.server), [.char("n")], .toggleNotifications, help: "list the requests / the notifications"),
    KeyBinding(.pane(.server), [.char("D")], .redeliver, help: "deliver the notification again"),

    KeyBinding(.pane(.catalog), [.enter], or: [.char("e")], .editCatalogEntry, help: "edit the product, group or settings"),
    KeyBinding(.pane(.catalog), [.char("a")], .addProduct, help: "add a product"),
    KeyBinding(.pane(.catalog), [.char("d")], .duplicateProduct, help: "duplicate the product"),
    KeyBinding(.pane(.catalog), [.char("x")], or: [.delete], .deleteProduct, help: "delete the product (asks first)"),
    KeyBinding(.pane(.catalog), [.char("<")], .moveLevel(-1), help: "subscription level up / down"),
    KeyBinding(.pane(.catalog), [.char(">")], .moveLevel(1), help: "subscription level up / down"),
    KeyBinding(.pane(.catalog), [.char("R")], .reloadCatalog, help: "reload the file from disk"),
  ]

  private static let sheets: [KeyBinding] = [
    KeyBinding(.sheet(.question), [.enter, .char("y")], .confirm, help: "confirm (Buy, OK, Quit, Clear)"),
    KeyBinding(.sheet(.question), [.escape, .char("n")], .cancel, help: "cancel"),
    KeyBinding(.sheet(.question), [.char(" ")], .dismiss, help: "close Ask to Buy; retention: cancel anyway"),

    KeyBinding(.sheet(.form), [.enter], .confirm, help: "confirm (Sign In, Save)"),
    KeyBinding(.sheet(.form), [.escape], .cancel, help: "cancel"),
    KeyBinding(.sheet(.form), [.tab], or: [.backTab, .up, .down], .nextField, help: "next field"),
    KeyBinding(.sheet(.form), [.backspace], or: [.delete], .erase, help: "delete the last character"),

    KeyBinding(.sheet(.editor), [.enter], .confirm, help: "save the form to the file"),
    KeyBinding(.sheet(.editor), [.escape], .cancel, help: "cancel"),
    KeyBinding(.sheet(.editor), [.tab], or: [.down], .nextField, help: "next / previous field"),
    KeyBinding(.sheet(.editor), [.backTab], or: [.up], .previousField, help: "next / previous field"),
    KeyBinding(.sheet(.editor), [.right], .nextValue, help: "pick a choice field's value"),
    KeyBinding(.sheet(.editor), [.left], .previousValue, help: "pick a choice field's value"),
    KeyBinding(.sheet(.editor), [.backspace], or: [.delete], .erase, help: "delete the last character"),

    KeyBinding(.sheet(.reader), [.up], or: [.char("k")], .moveUp, help: "scroll a line"),
    KeyBinding(.sheet(.reader), [.down], or: [.char("j")], .moveDown, help: "scroll a line"),
    KeyBinding(.sheet(.reader), [.pageUp], .pageUp, help: "scroll a page"),
    KeyBinding(.sheet(.reader), [.pageDown], or: [.char(" ")], .pageDown, help: "scroll a page"),
    KeyBinding(.sheet(.reader), [.home], .top, help: "to the top / to the end"),
    KeyBinding(.sheet(.reader), [.end], .bottom, help: "to the top / to the end"),
    KeyBinding(
      .sheet(.reader), [.escape], or: [.enter, .char("y"), .char("n"), .char("q")], .close,
      help: "close (so does the key that opened it)"),
  ]
}
