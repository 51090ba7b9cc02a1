/// Where everything goes on screen, as a pure function of the terminal size.
///
/// ``render(_:)`` draws into these rectangles and the reducer hit-tests mouse clicks against the
/// same ones, so a click always lands on what was drawn.
public struct AppLayout: Equatable, Sendable {
  /// Below this the app shows "Terminal too small".
  public static let minimumSize = Size(width: 60, height: 16)

  public let size: Size
  /// The panes with a tab, in order (``AppState/panes``).
  public let panes: [Pane]
  /// Store name, account, storefront, environment.
  public let title: Rect
  /// Virtual clock, time rate, busy indicator.
  public let info: Rect
  /// The pane tabs.
  public let tabs: Rect
  /// The focused pane's area.
  public let body: Rect
  /// Notices.
  public let status: Rect
  /// The key hint bar.
  public let hints: Rect

  public init(size: Size, panes: [Pane] = Pane.standard) {
    self.size = size
    self.panes = panes
    let screen = Rect(size: size)
    let (title, afterTitle) = screen.splitTop(1)
    let (info, afterInfo) = afterTitle.splitTop(1)
    let (tabs, afterTabs) = afterInfo.splitTop(1)
    let (rest, hints) = afterTabs.splitBottom(1)
    let (body, status) = rest.splitBottom(1)
    self.title = title
    self.info = info
    self.tabs = tabs
    self.body = body
    self.status = status
    self.hints = hints
  }

  /// Whether the terminal is below ``minimumSize``.
  public var isTooSmall: Bool { !size.fits(Self.minimumSize) }

  /// The label drawn for a pane's tab.
  public static func tabLabel(_ pane: Pane) -> String { " \(pane.shortcut) \(pane.title) " }

  /// Each tab's rectangle (screen coordinates), left to right.
  public var tabRects: [(pane: Pane, rect: Rect)] {
    var x = tabs.x + 1
    return panes.map { pane in
      let width = Self.tabLabel(pane).displayWidthASCII
      defer { x += width + 1 }
      return (pane, Rect(x: x, y: tabs.y, width: width, height: 1).intersection(tabs))
    }
  }

  /// Rows above a pane's list inside the body (column titles, summaries).
  public static func listHeaderRows(_ pane: Pane) -> Int {
    switch pane {
    case .store: 1
    case .transactions: 2
    case .settings: 1
    case .log: 1
    case .server: 2
    case .catalog: 2
    }
  }

  /// Rows below a pane's list inside the body (the Restore button).
  public static func listFooterRows(_ pane: Pane) -> Int { pane == .store ? 1 : 0 }

  /// Where a pane's list rows are drawn (screen coordinates).
  public func listRect(_ pane: Pane) -> Rect {
    let top = Self.listHeaderRows(pane)
    return body.inset(top: top, bottom: Self.listFooterRows(pane))
  }

  /// How many list rows a pane shows.
  public func visibleRows(_ pane: Pane) -> Int { max(0, listRect(pane).height) }

  /// The `[ Restore Purchases ]` button on the Store pane.
  public var restoreButton: Rect {
    let row = body.maxY - 1
    return Rect(x: body.x + 1, y: row, width: Self.restoreTitle.count + 4, height: 1).intersection(body)
  }

  /// The Restore button's title.
  public static let restoreTitle = "Restore Purchases"
}

extension String {
  /// Width of ASCII-only labels without the Unicode tables.
  fileprivate var displayWidthASCII: Int { unicodeScalars.count }
}
