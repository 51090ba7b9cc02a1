import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

@Suite struct AppReducerKeyTests {
  @Test func arrowsAndVimKeysMoveTheSelection() {
    var state = makeState()
    send(&state, .key(.down), .key(.char("j")))
    #expect(state.scroll(of: .store).selection == 2)
    send(&state, .key(.up))
    #expect(state.scroll(of: .store).selection == 1)
    send(&state, .key(.char("k")), .key(.char("k")))
    #expect(state.scroll(of: .store).selection == 0)
  }

  @Test func pagingAndHomeEndScrollALongList() {
    var state = makeState(catalog: largeCatalog(200))
    let visible = AppLayout(size: state.size).visibleRows(.store)
    send(&state, .key(.pageDown))
    #expect(state.scroll(of: .store).selection == visible - 1)
    send(&state, .key(.end))
    #expect(state.scroll(of: .store).selection == 199)
    #expect(state.scroll(of: .store).firstRow == 200 - visible)
    send(&state, .key(.pageUp))
    #expect(state.scroll(of: .store).selection == 199 - (visible - 1))
    send(&state, .key(.home))
    #expect(state.scroll(of: .store) == PaneScroll(selection: 0, firstRow: 0))
  }

  @Test func tabShiftTabAndDigitsSwitchPanes() {
    var state = makeState()
    send(&state, .key(.tab))
    #expect(state.focus == .transactions)
    send(&state, .key(.backTab), .key(.backTab))
    #expect(state.focus == .catalog)
    send(&state, .key(.char("3")))
    #expect(state.focus == .settings)
    send(&state, .key(.char("1")))
    #expect(state.focus == .store)
  }

  @Test func enterAndBBuyTheSelectedProduct() {
    var state = makeState()
    #expect(send(&state, .key(.enter)) == [.buy(FixtureCatalog.removeAds)])
    #expect(send(&state, .key(.down), .key(.char("b"))) == [.buy(FixtureCatalog.coins)])
  }

  @Test func pStartsAPurchaseFromTheAppStorePage() {
    var state = makeState()
    #expect(send(&state, .key(.down), .key(.char("p"))) == [.storePayment(FixtureCatalog.coins)])
    #expect(AppCommand.storePayment(FixtureCatalog.coins).storeCommand(now: Date()) == .storePayment(FixtureCatalog.coins))
  }

  @Test func restoreIsSentOnceUntilItFinishes() {
    var state = makeState()
    #expect(send(&state, .key(.char("r"))) == [.restore])
    #expect(state.isBusy)
    #expect(send(&state, .key(.char("r"))) == [])
    send(&state, .engine(.restoreFinished(restoredCount: 0)))
    #expect(!state.isRestoring)
    #expect(state.notice?.text == "Restore finished: nothing to restore.")
  }

  @Test func clockKeysAdvanceAnHourADayAndThirtyDays() {
    var state = makeState()
    #expect(send(&state, .key(.char("+")), .key(.char("]")), .key(.char("}")))
      == [.advance(3_600), .advance(86_400), .advance(2_592_000)])
  }

  @Test func relaunchKeyClosesSheetsAndRelaunches() {
    var state = makeState()
    state.sheet = .askToBuy(productName: "Remove Ads")
    send(&state, .key(.enter))
    #expect(send(&state, .key(.char("L"))) == [.relaunch])
  }

  @Test func quitAsksFirstWhileAPurchaseIsInFlight() {
    var state = makeState()
    #expect(send(&state, .key(.char("q"))) == [.quit])
    let purchasing = makeTransaction(1, FixtureCatalog.coins, kind: .consumable, state: .purchasing)
    step(&state, [.putTransaction(purchasing)], .transactionsUpdated([purchasing]))
    #expect(send(&state, .key(.char("q"))) == [])
    guard case .confirm(let question) = state.sheet else {
      Issue.record("expected the quit question, got \(String(describing: state.sheet))")
      return
    }
    #expect(question.command == .quit)
    #expect(send(&state, .key(.char("n"))) == [])
    #expect(state.sheet == nil)
    send(&state, .key(.char("q")))
    #expect(send(&state, .key(.char("y"))) == [.quit])
  }

  @Test func questionMarkOpensHelpThatScrollsAndCloses() {
    var state = makeState()
    send(&state, .key(.char("?")))
    #expect(state.sheet == .help(firstRow: 0))
    send(&state, .key(.down), .key(.down))
    #expect(state.sheet == .help(firstRow: 2))
    send(&state, .key(.escape))
    #expect(state.sheet == nil)
  }

  @Test func helpListsEveryBoundKey() {
    let help = KeyBindings.helpLines
    for binding in KeyBindings.all {
      // The binding's row: its help text, after keys that include every key it binds.
      let row = help.first { line in
        line.hasSuffix(binding.help) && binding.allKeys.allSatisfy { key in
          line.dropLast(binding.help.count).split(separator: " ").contains(Substring(key.description))
        }
      }
      #expect(row != nil, "help lacks \(binding.allKeys) → \(binding.intent)")
    }
  }

  @Test func tooSmallTerminalOnlyQuits() {
    var state = makeState(size: Size(width: 30, height: 8))
    #expect(send(&state, .key(.enter)) == [])
    #expect(send(&state, .key(.char("q"))) == [.quit])
    send(&state, .resized(standardSize))
    #expect(send(&state, .key(.enter)) == [.buy(FixtureCatalog.removeAds)])
  }

  @Test func resizingKeepsTheSelectionVisible() {
    var state = makeState(catalog: largeCatalog(100))
    send(&state, .key(.end))
    send(&state, .resized(Size(width: 80, height: 40)))
    let visible = AppLayout(size: state.size).visibleRows(.store)
    let scroll = state.scroll(of: .store)
    #expect(scroll.selection == 99)
    #expect(scroll.firstRow == 100 - visible)
  }

  // MARK: Settings

  @Test func settingsTogglesAndCycles() {
    var state = makeState()
    send(&state, .key(.char("3")))
    let row = { (item: SettingsItem) in SettingsItem.all.firstIndex(of: item) ?? 0 }
    func select(_ item: SettingsItem) {
      send(&state, .key(.home))
      for _ in 0..<row(item) { send(&state, .key(.down)) }
    }
    select(.askToBuy)
    #expect(send(&state, .key(.enter)) == [.setControl(.askToBuy(true))])
    select(.interruptedPurchases)
    #expect(send(&state, .key(.char(" "))) == [.setControl(.interruptedPurchases(true))])
    select(.dialogs)
    #expect(send(&state, .key(.enter)) == [.setControl(.dialogs(false))])
    select(.canMakePayments)
    #expect(send(&state, .key(.enter)) == [.setControl(.canMakePayments(false))])
    select(.billingRetry)
    #expect(send(&state, .key(.enter)) == [.setControl(.billingRetry(true))])
    select(.gracePeriod)
    #expect(send(&state, .key(.enter)) == [.setControl(.gracePeriod(true))])
    select(.failure(.purchase))
    #expect(send(&state, .key(.right)) == [.setControl(.failure(.purchase, SimulatedFailure(error: .unknown)))])
    #expect(send(&state, .key(.left)) == [.setControl(.failure(.purchase, SimulatedFailure(error: .serverUnknown)))])
    select(.storefront)
    #expect(send(&state, .key(.right)) == [.setControl(.storefront("KOR"))])
    #expect(send(&state, .key(.left)) == [.setControl(.storefront("DEU"))])
    select(.locale)
    #expect(send(&state, .key(.enter)) == [.setControl(.locale("ko_KR"))])
    select(.timeRate)
    #expect(send(&state, .key(.enter)) == [.setControl(.timeRate(TimeRate.all[1].rawValue))])
    select(.signOut)
    #expect(send(&state, .key(.enter)) == [.signOut])
    select(.relaunch)
    #expect(send(&state, .key(.enter)) == [.relaunch])
    select(.clearHistory)
    #expect(send(&state, .key(.enter)) == [])
    #expect(send(&state, .key(.char("y"))) == [.clearHistory])
    select(.account)
    send(&state, .key(.enter))
    #expect(state.sheet == .signIn(SignInSheet(purpose: nil, account: "tester")))
  }

  @Test func settingsValuesFollowTheControls() {
    var state = makeState()
    var controls = state.controls
    controls.askToBuy = true
    controls.failures[.appStoreSync] = SimulatedFailure(error: .paymentNotAllowed)
    controls.timeRate = 1003
    send(&state, .engine(.controlsChanged(controls)))
    #expect(SettingsItem.askToBuy.value(in: state) == "on")
    #expect(SettingsItem.failure(.appStoreSync).value(in: state) == "paymentNotAllowed (4)")
    #expect(SettingsItem.timeRate.value(in: state) == "every-30s")
    #expect(SettingsItem.account.value(in: state) == "tester")
  }

  // MARK: Transactions

  private func transactionsState(_ transactions: [PaymentTransaction], subscriptions: [SubscriptionRecord] = []) -> AppState {
    var state = makeState(transactions: transactions, subscriptions: subscriptions)
    send(&state, .key(.char("2")))
    return state
  }

  @Test func transactionKeysActOnTheSelectedTransaction() {
    let deferred = makeTransaction(7, FixtureCatalog.coins, kind: .consumable, state: .deferred)
    var state = transactionsState([deferred])
    let id = deferred.id
    #expect(send(&state, .key(.char("f"))) == [.finish(id)])
    #expect(send(&state, .key(.char("a"))) == [.approve(id)])
    #expect(send(&state, .key(.char("d"))) == [.decline(id)])
    #expect(send(&state, .key(.char("x"))) == [.refund(id)])
    #expect(send(&state, .key(.char("R"))) == [.resolve(id)])
  }

  @Test func resolveOnASubscriptionInBillingRetryResolvesTheBillingIssue() throws {
    var renewal = makeTransaction(9, FixtureCatalog.monthly, kind: .autoRenewableSubscription, state: .purchased)
    renewal.expiresDate = TestStore.start.addingTimeInterval(3600)
    let record = try subscriptionRecord(original: renewal.id, status: .inBillingRetry, autoRenew: true)
    var state = transactionsState([renewal], subscriptions: [record])
    #expect(send(&state, .key(.char("R"))) == [.resolveBillingIssue(renewal.id)])
    #expect(send(&state, .key(.char("A"))) == [.setAutoRenew(renewal.id, false)])
    #expect(send(&state, .key(.char("E"))) == [.expireSubscription(renewal.id)])
    #expect(send(&state, .key(.char("N"))) == [.renewNow(renewal.id)])
  }

  @Test func subscriptionKeysOnOtherProductsExplainInstead() {
    var state = transactionsState([makeTransaction(3, FixtureCatalog.coins, kind: .consumable, state: .purchased)])
    #expect(send(&state, .key(.char("A"))) == [])
    #expect(state.notice?.text == "Transaction 3 (100 Coins) is not an auto-renewable subscription.")
  }

  @Test func transactionKeysWithNothingSelectedSayWhy() {
    var state = transactionsState([])
    #expect(send(&state, .key(.char("f"))) == [])
    #expect(state.notice?.kind == .error)
  }

  @Test func theAppReceiptIsShownAndExportedFromTheTransactionsPane() {
    var state = transactionsState([makeTransaction(5, FixtureCatalog.coins, kind: .consumable, state: .purchased)])
    #expect(send(&state, .key(.char("c"))) == [.showReceipt])
    send(&state, .receiptRead(title: "App Receipt of tester", lines: ["  2 bundle id  b"]))
    guard case .request(let detail) = state.sheet else {
      Issue.record("expected the receipt reader")
      return
    }
    #expect(detail.title == "App Receipt of tester")
    send(&state, .key(.escape), .key(.char("C")))
    guard case .export(let export) = state.sheet, export.isReceipt else {
      Issue.record("expected the receipt export sheet")
      return
    }
    #expect(export.path.hasPrefix("receipt-") && export.path.hasSuffix(".der"))
    #expect(send(&state, .key(.enter)) == [.exportReceipt(path: export.path)])
  }

  @Test func viewAndExportNeedASignedTransaction() {
    var unsigned = makeTransaction(4, FixtureCatalog.coins, kind: .consumable, state: .failed)
    unsigned.error = .paymentCancelled
    var state = transactionsState([unsigned])
    #expect(send(&state, .key(.char("v"))) == [])
    #expect(state.sheet == nil)
    #expect(state.notice?.text.contains("has no signed transaction") == true)

    var signed = makeTransaction(5, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased)
    signed.signedTransaction = sampleJWS(transactionID: "5")
    state = transactionsState([signed])
    send(&state, .key(.enter))
    guard case .jws(let detail) = state.sheet else {
      Issue.record("expected the JWS sheet")
      return
    }
    #expect(detail.lines.contains("  \"transactionId\" : \"5\""))
    send(&state, .key(.escape), .key(.char("e")))
    #expect(state.sheet == .export(ExportSheet(transaction: signed.id, path: "transaction-5.jws")))
    send(&state, .key(.backspace), .key(.backspace), .key(.backspace))
    let commands = send(&state, typing("txt") + [.key(.enter)])
    #expect(commands == [.exportJWS(signed.id, path: "transaction-5.txt")])
    #expect(state.sheet == nil)
  }

  @Test func aMalformedJWSIsShownRaw() {
    var signed = makeTransaction(5, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased)
    signed.signedTransaction = "not-a-jws"
    var state = transactionsState([signed])
    send(&state, .key(.char("v")))
    guard case .jws(let detail) = state.sheet else {
      Issue.record("expected the JWS sheet")
      return
    }
    #expect(detail.lines.contains { $0.hasPrefix("Not a compact JWS") })
    #expect(detail.lines.contains("not-a-jws"))
  }

  /// Issue 13: the transaction view shows the order id as Apple's e-mail receipt does, and what the
  /// app's server reported with Send Consumption Information.
  @Test func theTransactionViewShowsTheOrderIDAndTheServersConsumptionReport() {
    var signed = makeTransaction(5, FixtureCatalog.coins, kind: .consumable, state: .purchased)
    signed.signedTransaction = sampleJWS(transactionID: "5")
    signed.consumption = ConsumptionInformation(
      customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED", consumptionPercentage: 25_000,
      refundPreference: "DECLINE", receivedDate: TestStore.start)
    var state = transactionsState([signed])
    send(&state, .key(.char("v")))
    guard case .jws(let detail) = state.sheet else {
      Issue.record("expected the JWS sheet")
      return
    }
    #expect(detail.lines.first == "Order ID: \(OrderID.make(for: signed.id))")
    #expect(detail.lines.contains("Consumption (from the server): delivery DELIVERED, consumed 25.0 %, refund preference DECLINE, no sample"))
    #expect(detail.lines.contains("  \"transactionId\" : \"5\""))
  }

  // MARK: Sheets

  @Test func purchaseSheetConfirmsWithEnterOrYAndCancelsWithEscOrN() {
    for (key, command) in [(Key.enter, AppCommand.confirm), (.char("y"), .confirm), (.escape, .cancel), (.char("n"), .cancel)] {
      var state = makeState()
      send(&state, .engine(.promptPresented(.confirm(transaction: PaymentTransaction.ID(1), product: FixtureCatalog.coins, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(FixtureCatalog.coins, quantity: 1)))))
      #expect(send(&state, .key(.char("j"))) == [])
      #expect(send(&state, .key(key)) == [command])
      #expect(state.sheet == nil)
    }
  }

  @Test func signInSheetEditsFieldsAndSubmits() {
    var state = makeState(account: nil)
    send(&state, .engine(.promptPresented(.signIn(purpose: .restore))))
    send(&state, typing("bobx") + [.key(.backspace)])
    send(&state, .key(.enter))  // moves to the password field
    send(&state, typing("pw"))
    guard case .signIn(let form) = state.sheet else {
      Issue.record("expected the sign-in sheet")
      return
    }
    #expect(form.account == "bob")
    #expect(form.password == "pw")
    #expect(form.field == .password)
    #expect(send(&state, .key(.enter)) == [.signIn(name: "bob", password: "pw")])
    send(&state, .commandFailed(.signIn(name: "bob", password: "pw"), message: "Wrong password for sandbox account 'bob'."))
    guard case .signIn(let failed) = state.sheet else {
      Issue.record("the sheet should stay up after a failed sign-in")
      return
    }
    #expect(failed.error == "Wrong password for sandbox account 'bob'.")
    #expect(failed.password.isEmpty)
    #expect(send(&state, .key(.escape)) == [.cancel])
  }

  @Test func signInNeedsAName() {
    var state = makeState(account: nil)
    send(&state, .key(.char("i")))
    #expect(send(&state, .key(.enter)) == [])
    guard case .signIn(let form) = state.sheet else {
      Issue.record("expected the sign-in sheet")
      return
    }
    #expect(form.error == "Type the sandbox tester's account name.")
    #expect(send(&state, .key(.escape)) == [])
    #expect(state.sheet == nil)
  }

  @Test func userOpenedSignInClosesWhenItSucceeds() {
    var state = makeState()
    send(&state, .key(.char("i")))
    send(&state, .key(.tab))
    #expect(send(&state, .key(.enter)) == [.signIn(name: "tester", password: "")])
    send(&state, .commandSucceeded(.signIn(name: "tester", password: ""), message: nil))
    #expect(state.sheet == nil)
  }

  @Test func askToBuyMessageDismissesWithAnyAnswer() {
    var state = makeState()
    let deferred = makeTransaction(2, FixtureCatalog.coins, kind: .consumable, state: .deferred)
    step(&state, [.putTransaction(deferred)], .transactionsUpdated([deferred]))
    #expect(state.sheet == .askToBuy(productName: "100 Coins"))
    send(&state, .key(.char("y")))
    #expect(state.sheet == nil)
  }

  // MARK: Ticks

  @Test func noticesDisappearAfterAFewSecondsOfTicks() {
    var state = makeState()
    state.notice = Notice("Purchased")
    let start = Date(timeIntervalSince1970: 1_000)
    send(&state, .tick(start), .tick(start.addingTimeInterval(1)), .tick(start.addingTimeInterval(3)))
    #expect(state.notice?.text == "Purchased")
    send(&state, .tick(start.addingTimeInterval(Notice.duration)))
    #expect(state.notice == nil)
  }

  @Test func theSpinnerTurnsOnlyWhileBusy() {
    var state = makeState()
    send(&state, .tick(Date()))
    #expect(state.spinnerFrame == 0)
    send(&state, .key(.char("r")), .tick(Date()), .tick(Date()))
    #expect(state.spinnerFrame == 2)
    #expect(render(state).plainText.contains("/ Restoring purchases…") || render(state).plainText.contains("- Restoring purchases…"))
  }
}

func subscriptionRecord(
  original: PaymentTransaction.ID, status: SubscriptionStatus, autoRenew: Bool, expires: Date? = nil
) throws -> SubscriptionRecord {
  // SubscriptionRecord has no public memberwise initializer; decode one as the ledger stores it.
  let json = """
    {"originalID":\(original.rawValue),"account":"tester","groupID":"\(FixtureCatalog.group)",
     "productID":"\(FixtureCatalog.monthly)","renewalProductID":"\(FixtureCatalog.monthly)",
     "autoRenew":\(autoRenew),"status":"\(status.rawValue)",
     "expiresDate":\(Int((expires ?? TestStore.start.addingTimeInterval(3600)).timeIntervalSince1970 * 1000)),
     "renewalCount":0,"priceIncreasePending":false,"webOrderLineItemID":1000000001}
    """
  let decoder = JSONDecoder()
  decoder.dateDecodingStrategy = .millisecondsSince1970
  return try decoder.decode(SubscriptionRecord.self, from: Data(json.utf8))
}
