import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The key table itself: unambiguous, complete for hints, and what the reducer dispatches from.
@Suite struct KeyBindingsTests {
  @Test func everyKeyIsBoundOncePerScopeAndNoPaneShadowsAGlobalKey() {
    let global = Set(KeyBindings.all.filter { $0.scope == .global }.flatMap(\.allKeys))
    for scope in KeyScope.allCases {
      let keys = KeyBindings.all.filter { $0.scope == scope }.flatMap(\.allKeys)
      #expect(Set(keys).count == keys.count, "a key is bound twice in \(scope)")
      if case .pane = scope {
        #expect(global.isDisjoint(with: keys), "\(scope) rebinds a global key")
      }
    }
  }

  @Test func everyBoundKeyLooksUpItsIntent() {
    for binding in KeyBindings.all {
      for key in binding.allKeys {
        #expect(KeyBindings.intent(for: key, in: binding.scope) == binding.intent, "\(key) in \(binding.scope)")
      }
    }
    #expect(KeyBindings.intent(for: .char("z"), in: .pane(.store)) == nil)
    #expect(KeyBindings.intent(for: .char("y"), in: .sheet(.form)) == .type("y"))
    #expect(KeyBindings.intent(for: .char("y"), in: .sheet(.question)) == .confirm)
  }

  @Test func everyHintNamesKeysThatAreBound() {
    for scope in KeyScope.allCases {
      for hint in KeyBindings.hints(for: scope) {
        for intent in hint.groups.joined() {
          #expect(KeyBindings.binding(for: intent, in: scope) != nil, "the \(scope) hint names unbound \(intent)")
        }
      }
    }
  }

  @Test func hintsAreBuiltFromTheTable() {
    #expect(KeyBindings.hint(for: .pane(.store)) == "↑↓ move  Enter buy  r restore  Tab pane  + ] clock  ? help  q quit")
    #expect(KeyBindings.hint(for: .pane(.settings)) == "↑↓ move  Enter/←→ change  Tab pane  ? help  q quit")
    #expect(KeyBindings.hint(for: .sheet(.reader)) == "↑↓ PgUp/PgDn scroll  Esc close")
    #expect(KeyBindings.hint(for: .global) == "")
  }

  @Test func paneDigitsAndTheirHelpComeFromThePanes() {
    let digits = Pane.allCases.map { String($0.shortcut) }.joined(separator: " ")
    // Six titles no longer fit the help sheet's 80 columns; the tabs name the panes.
    #expect(KeyBindings.helpLines.contains { $0.hasPrefix("  \(digits) ") && $0.hasSuffix("switch to that pane (5 needs --serve)") })
    for pane in Pane.allCases {
      #expect(KeyBindings.intent(for: .char(pane.shortcut), in: .pane(.log)) == .focus(pane))
    }
  }

  @Test func everyHelpLineFitsTheHelpSheetAt80Columns() {
    var state = makeState(size: Size(width: 80, height: KeyBindings.helpLines.count + 10))
    send(&state, .key(.char("?")))
    let screen = render(state).plainText
    #expect(!screen.contains("…"), "a help line is cut off:\n\(screen)")
    #expect(screen.contains(KeyBindings.helpLines.last ?? "?"))
  }

  // MARK: Keys the table binds besides the obvious ones

  @Test func f1OpensTheHelpAndClosesItLikeQuestionMark() {
    var state = makeState()
    send(&state, .key(.function(1)))
    #expect(state.sheet == .help(firstRow: 0))
    send(&state, .key(.char("v")))
    #expect(state.sheet == .help(firstRow: 0), "v opens the JWS view, so it does not close the help")
    send(&state, .key(.function(1)))
    #expect(state.sheet == nil)
  }

  @Test func theJWSViewClosesWithVButNotWithQuestionMark() {
    var signed = makeTransaction(5, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased)
    signed.signedTransaction = sampleJWS(transactionID: "5")
    var state = makeState(transactions: [signed])
    send(&state, .key(.char("2")), .key(.char("v")))
    guard case .jws = state.sheet else {
      Issue.record("expected the JWS sheet")
      return
    }
    send(&state, .key(.char("?")))
    guard case .jws = state.sheet else {
      Issue.record("? closed the JWS sheet")
      return
    }
    send(&state, .key(.char("v")))
    #expect(state.sheet == nil)
  }

  @Test func hAndLChangeSettingsAndPanTheLog() {
    var state = makeState()
    send(&state, .key(.char("3")))
    for _ in 0..<(SettingsItem.all.firstIndex(of: .storefront) ?? 0) { send(&state, .key(.down)) }
    #expect(send(&state, .key(.char("l"))) == [.setControl(.storefront("KOR"))])
    #expect(send(&state, .key(.char("h"))) == [.setControl(.storefront("DEU"))])
    send(&state, .key(.char("4")), .key(.char("l")), .key(.char("l")))
    #expect(state.logColumn == 2 * 20)
    send(&state, .key(.char("h")))
    #expect(state.logColumn == 20)
  }

  @Test func spaceClosesAskToBuyButNotThePurchaseSheet() {
    var state = makeState()
    state.sheet = .askToBuy(productName: "Remove Ads")
    send(&state, .key(.char(" ")))
    #expect(state.sheet == nil)
    send(&state, .engine(.promptPresented(.confirm(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.coins, quantity: 1, alreadyOwned: false,
      price: TestStore.listPrice(FixtureCatalog.coins, quantity: 1)))))
    #expect(send(&state, .key(.char(" "))) == [])
    guard case .purchase = state.sheet else {
      Issue.record("Space closed the purchase sheet")
      return
    }
  }
}
