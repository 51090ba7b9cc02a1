import StoreEngine

/// A sheet's box, text and buttons for a screen size: drawn by ``render(_:)`` and hit-tested by the
/// reducer from the same value.
public struct SheetLayout: Equatable {
  /// What a sheet button does.
  public enum Role: Equatable, Sendable {
    case cancel
    case confirm
    /// A confirm sheet's third answer (space).
    case alternative
  }

  public struct ButtonSpot: Equatable {
    public var title: String
    public var role: Role
    /// Screen coordinates.
    public var rect: Rect
  }

  public struct Line: Equatable {
    public var text: String
    public var style: Style
  }

  /// The sheet's border box (screen coordinates).
  public let box: Rect
  public let title: String
  /// The lines to draw, already wrapped and scrolled.
  public let lines: [Line]
  public let buttons: [ButtonSpot]
  /// For scrolling sheets: total lines, and how many fit.
  public let totalLines: Int
  public let visibleLines: Int
  /// For scrolling sheets: the index of the first line shown.
  public let firstLine: Int

  public init(sheet: Sheet, size: Size) {
    let content = Self.content(sheet)
    let screen = Rect(size: size)
    let scrolling = content.scrollsFrom != nil
    let width = min(max(0, size.width - 4), scrolling ? 84 : 62)
    let textWidth = max(1, width - 4)
    var lines: [Line] = []
    for line in content.lines {
      let wrapped = line.wrap ? TextWrap.wrap(line.text, width: textWidth) : [line.text]
      lines += wrapped.map { Line(text: $0, style: line.style) }
    }
    let chrome = 4  // top and bottom border, a blank row, the button row
    let maxLines = max(0, size.height - 2 - chrome)
    let shown = scrolling ? maxLines : min(lines.count, maxLines)
    let height = min(size.height, shown + chrome)
    let box = Rect(
      x: screen.x + (size.width - width) / 2, y: screen.y + max(0, (size.height - height) / 2),
      width: width, height: height)
    totalLines = lines.count
    visibleLines = shown
    if let first = content.scrollsFrom {
      let start = min(max(0, first), max(0, lines.count - shown))
      firstLine = start
      lines = Array(lines.dropFirst(start).prefix(shown))
    } else {
      firstLine = 0
      lines = Array(lines.prefix(shown))
    }
    self.box = box
    self.title = content.title
    self.lines = lines
    var spots: [ButtonSpot] = []
    var right = box.maxX - 2
    for (title, role) in content.buttons.reversed() {
      let buttonWidth = Button.width(title)
      right -= buttonWidth
      spots.insert(ButtonSpot(title: title, role: role, rect: Rect(x: right, y: box.maxY - 2, width: buttonWidth, height: 1)), at: 0)
      right -= 2
    }
    self.buttons = spots
  }

  /// How many lines a scrolling sheet (help, JWS, request) holds, for clamping its scroll position.
  public static func scrollLimit(sheet: Sheet, size: Size) -> Int {
    let layout = SheetLayout(sheet: sheet, size: size)
    return max(0, layout.totalLines - layout.visibleLines)
  }

  // MARK: Content

  private struct ContentLine {
    var text: String
    var style: Style = .plain
    var wrap = true
  }

  private struct Content {
    var title: String
    var lines: [ContentLine]
    var buttons: [(String, Role)]
    var scrollsFrom: Int?
  }

  private static let environment = ContentLine(text: "[Environment: Sandbox]", style: .muted)
  /// How many of the store's offer codes the Redeem Code sheet lists.
  static let listedCodes = 6

  private static func content(_ sheet: Sheet) -> Content {
    let attached: String? =
      switch sheet {
      case .purchase(let purchase): purchase.app
      case .signIn(let form): form.app
      default: nil
      }
    guard let app = attached else { return ownContent(sheet) }
    // An attached app's sheet says whose it is, above the environment line.
    var content = ownContent(sheet)
    content.lines.insert(ContentLine(text: "For \(app)", style: .muted), at: max(0, content.lines.count - 1))
    return content
  }

  private static func ownContent(_ sheet: Sheet) -> Content {
    switch sheet {
    case .purchase(let purchase):
      if purchase.alreadyOwned {
        return Content(
          title: "Confirm Your In-App Purchase",
          lines: [
            ContentLine(text: "You've already purchased this. Would you like to get it again for free?"),
            ContentLine(text: purchase.productName, style: .bold), ContentLine(text: ""), environment,
          ],
          buttons: [("Cancel", .cancel), ("OK", .confirm)])
      }
      if let terms = purchase.terms {
        return Content(
          title: terms.title,
          lines: [ContentLine(text: terms.question(productName: purchase.productName))]
            + (purchase.includes.isEmpty ? [] : [ContentLine(text: "Includes: " + purchase.includes.joined(separator: ", ") + ".")])
            + [ContentLine(text: terms.summary)]
            + terms.commitmentDisclosure.map { ContentLine(text: $0, style: .bold) }
            + [ContentLine(text: PurchaseSheet.Terms.renewal), ContentLine(text: ""), environment],
          buttons: [("Cancel", .cancel), ("Subscribe", .confirm)])
      }
      let count = purchase.quantity == 1 ? "one" : String(purchase.quantity)
      return Content(
        title: "Confirm Your In-App Purchase",
        lines: [
          ContentLine(text: "Do you want to buy \(count) \(purchase.productName) for \(purchase.price)?"),
          ContentLine(text: ""), environment,
        ],
        buttons: [("Cancel", .cancel), ("Buy", .confirm)])
    case .signIn(let form):
      let reason =
        switch form.purpose {
        case .purchase: "Sign in with your sandbox Apple Account to buy."
        case .restore: "Sign in with your sandbox Apple Account to restore purchases."
        case nil: "Sign in as a sandbox tester (a new name creates the account)."
        }
      var lines = [
        ContentLine(text: reason), ContentLine(text: ""),
        field("Account", form.account, focused: form.field == .account),
        field("Password", String(repeating: "*", count: form.password.count), focused: form.field == .password),
      ]
      if let error = form.error { lines += [ContentLine(text: ""), ContentLine(text: error, style: .error)] }
      lines += [ContentLine(text: ""), environment]
      return Content(title: "Sign In", lines: lines, buttons: [("Cancel", .cancel), ("Sign In", .confirm)])
    case .askToBuy(let name):
      return Content(
        title: "Ask Permission",
        lines: [
          ContentLine(text: "A request has been sent."),
          ContentLine(text: "\(name) will be bought when the family organizer approves it."),
          ContentLine(text: ""), environment,
        ],
        buttons: [("OK", .confirm)])
    case .confirm(let question):
      return Content(
        title: question.title, lines: question.message.split(separator: "\n", omittingEmptySubsequences: false).map { ContentLine(text: String($0)) },
        buttons: [(question.cancelTitle, .cancel)] + (question.alternative.map { [($0.title, Role.alternative)] } ?? [])
          + [(question.confirmTitle, .confirm)])
    case .help(let first):
      return Content(
        title: "Keys", lines: KeyBindings.helpLines.map { ContentLine(text: $0, wrap: false) },
        buttons: [("Close", .cancel)], scrollsFrom: first)
    case .jws(let detail):
      return Content(
        title: "Signed Transaction \(detail.transaction)",
        lines: detail.lines.map { ContentLine(text: $0, wrap: false) },
        buttons: [("Close", .cancel)], scrollsFrom: detail.firstRow)
    case .request(let detail):
      return Content(
        title: detail.title, lines: detail.lines.map { ContentLine(text: $0, wrap: false) },
        buttons: [("Close", .cancel)], scrollsFrom: detail.firstRow)
    case .export(let export) where export.isReceipt:
      return Content(
        title: "Export App Receipt",
        lines: [
          ContentLine(text: "Save the app receipt (PKCS#7 DER, signed by the sandbox CA) to:"), ContentLine(text: ""),
          field("Path", export.path, focused: true),
        ],
        buttons: [("Cancel", .cancel), ("Save", .confirm)])
    case .export(let export):
      return Content(
        title: "Export Signed Transaction",
        lines: [
          ContentLine(text: "Save the JWS of transaction \(export.transaction) to:"), ContentLine(text: ""),
          field("Path", export.path, focused: true),
        ],
        buttons: [("Cancel", .cancel), ("Save", .confirm)])
    case .notificationURL(let sheet) where sheet.purpose.isOfferCode:
      var app = "this app"
      if case .attachedOfferCode(_, let bundle) = sheet.purpose { app = bundle }
      var lines = [
        ContentLine(text: "Enter an offer code of \(app), or its redemption URL:"), ContentLine(text: ""),
        field("Code", sheet.url, focused: true), ContentLine(text: ""), environment,
      ]
      // B87: the tester's view of the store's codes (App Store Connect's list), not Apple's sheet.
      if let codes = sheet.codes, !codes.isEmpty {
        lines.append(ContentLine(text: ""))
        lines.append(ContentLine(text: "Offer codes of this store (storefront offer-codes list):", style: .muted))
        for code in codes.prefix(Self.listedCodes) { lines.append(ContentLine(text: "  " + code, style: .muted, wrap: false)) }
        if codes.count > Self.listedCodes { lines.append(ContentLine(text: "  … and \(codes.count - Self.listedCodes) more", style: .muted)) }
      }
      return Content(title: "Redeem Code", lines: lines, buttons: [("Cancel", .cancel), ("Redeem", .confirm)])
    case .notificationURL(let sheet) where sheet.purpose == .appServer:
      return Content(
        title: "The App's Server",
        lines: [
          ContentLine(text: "Where the app POSTs each purchase before finishing it (empty: the app finishes manually):"),
          ContentLine(text: ""), field("URL", sheet.url, focused: true),
        ],
        buttons: [("Cancel", .cancel), ("Save", .confirm)])
    case .catalogForm(let form):
      var lines = [ContentLine(text: form.intro, style: .muted), ContentLine(text: "")]
      for (index, field) in form.fields.enumerated() {
        let focused = index == form.field
        let value = field.choices == nil ? field.text + (focused ? "_" : "") : "‹ \(field.text) ›"
        lines.append(ContentLine(text: (focused ? "▸ " : "  ") + field.label.padded(toWidth: 28) + value, style: focused ? .underline : .plain, wrap: false))
      }
      lines.append(ContentLine(text: ""))
      lines.append(form.problem.map { ContentLine(text: $0, style: .error) } ?? ContentLine(text: "OK: Enter saves to the file.", style: .muted))
      // The form scrolls to keep its focused field in view.
      return Content(title: form.title, lines: lines, buttons: [("Cancel", .cancel), ("Save", .confirm)], scrollsFrom: max(0, form.field - 8))
    case .notificationURL(let sheet):
      return Content(
        title: "App Store Server Notifications",
        lines: [
          ContentLine(text: "Where the serving process POSTs each notification (empty: none are queued):"), ContentLine(text: ""),
          field("URL", sheet.url, focused: true),
        ],
        buttons: [("Cancel", .cancel), ("Save", .confirm)])
    }
  }

  private static func field(_ label: String, _ value: String, focused: Bool) -> ContentLine {
    let text = label.padded(toWidth: 10) + value + (focused ? "_" : "")
    return ContentLine(text: text, style: focused ? .underline : .plain, wrap: false)
  }
}
