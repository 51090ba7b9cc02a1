import StoreEngine

extension AppReducer {
  /// Keys while a sheet is up: the sheet gets them all, looked up in its ``KeyScope/sheet(_:)`` scope.
  static func sheetKey(_ key: Key, _ sheet: Sheet, _ state: inout AppState) -> [AppCommand] {
    guard let intent = KeyBindings.intent(for: key, in: .sheet(SheetKind(sheet))) else {
      // A reader also closes with the key that opened it (`?` the help, `v` the decoded JWS).
      if reopens(sheet, key) { state.sheet = nil }
      return []
    }
    switch sheet {
    case .purchase(let purchase) where purchase.app != nil:
      switch intent {
      case .confirm:
        state.sheet = nil
        return [.answerSheet(purchase.transaction, .confirm)]
      case .cancel:
        state.sheet = nil
        return [.answerSheet(purchase.transaction, .cancel)]
      default:
        return []
      }
    case .purchase:
      switch intent {
      case .confirm:
        state.sheet = nil
        return [.confirm]
      case .cancel:
        state.sheet = nil
        return [.cancel]
      default:
        return []
      }
    case .askToBuy:
      if intent == .confirm || intent == .cancel || intent == .dismiss { state.sheet = nil }
      return []
    case .confirm(let question):
      switch intent {
      case .confirm:
        state.sheet = nil
        return [question.command]
      case .cancel:
        state.sheet = nil
        return []
      case .dismiss:
        guard let alternative = question.alternative else { return [] }
        state.sheet = nil
        return [alternative.command]
      default:
        return []
      }
    case .signIn(var form):
      return signInIntent(intent, &form, &state)
    case .export(var export):
      return exportIntent(intent, &export, &state)
    case .notificationURL(var sheet):
      return urlIntent(intent, &sheet, &state)
    case .catalogForm(var form):
      return catalogFormIntent(intent, &form, &state)
    case .help(let first):
      if intent == .close {
        state.sheet = nil
        return []
      }
      let limit = SheetLayout.scrollLimit(sheet: sheet, size: state.size)
      state.sheet = .help(firstRow: scrolled(first, intent, limit: limit, page: pageOf(sheet, state)))
      return []
    case .jws(var detail):
      if intent == .close {
        state.sheet = nil
        return []
      }
      let limit = SheetLayout.scrollLimit(sheet: sheet, size: state.size)
      detail.firstRow = scrolled(detail.firstRow, intent, limit: limit, page: pageOf(sheet, state))
      state.sheet = .jws(detail)
      return []
    case .request(var detail):
      if intent == .close {
        state.sheet = nil
        return []
      }
      let limit = SheetLayout.scrollLimit(sheet: sheet, size: state.size)
      detail.firstRow = scrolled(detail.firstRow, intent, limit: limit, page: pageOf(sheet, state))
      state.sheet = .request(detail)
      return []
    }
  }

  /// Whether `key` is the one that opened the reader `sheet`.
  private static func reopens(_ sheet: Sheet, _ key: Key) -> Bool {
    switch sheet {
    case .help: KeyBindings.intent(for: key, in: .global) == .help
    case .jws: KeyBindings.intent(for: key, in: .pane(.transactions)) == .viewJWS
    case .request: KeyBindings.intent(for: key, in: .pane(.server)) == .openRequest
    default: false
    }
  }

  private static func urlIntent(_ intent: KeyIntent, _ sheet: inout URLSheet, _ state: inout AppState) -> [AppCommand] {
    switch intent {
    case .cancel:
      state.sheet = nil
      if case .attachedOfferCode(let session, _) = sheet.purpose { return [.answerCodeSheet(session: session, code: nil)] }
    case .confirm where sheet.purpose.isOfferCode:
      let code = sheet.url.trimmingCharacters(in: .whitespaces)
      guard !code.isEmpty else {
        state.notice = Notice("Type the offer code to redeem, or press Esc.", kind: .error)
        return []
      }
      state.sheet = nil
      if case .attachedOfferCode(let session, _) = sheet.purpose { return [.answerCodeSheet(session: session, code: code)] }
      return [.redeemOfferCode(code)]
    case .confirm:
      let url = sheet.url.trimmingCharacters(in: .whitespaces)
      guard url.isEmpty || url.hasPrefix("http://") || url.hasPrefix("https://") else {
        state.notice = Notice("Type an http:// or https:// URL, or clear the field to turn notifications off.", kind: .error)
        return []
      }
      state.sheet = nil
      if sheet.purpose == .appServer {
        setAppServerURL(url.isEmpty ? nil : url, &state)
        return []
      }
      return [.setNotificationURL(url.isEmpty ? nil : url)]
    case .erase:
      if !sheet.url.isEmpty { sheet.url.removeLast() }
      state.sheet = .notificationURL(sheet)
    case .type(let character):
      sheet.url.append(character)
      state.sheet = .notificationURL(sheet)
    default:
      break
    }
    return []
  }

  private static func exportIntent(_ intent: KeyIntent, _ export: inout ExportSheet, _ state: inout AppState) -> [AppCommand] {
    switch intent {
    case .cancel:
      state.sheet = nil
    case .confirm:
      state.sheet = nil
      let path = export.path.trimmingCharacters(in: .whitespaces)
      guard !path.isEmpty else {
        state.notice = Notice("Type a file path to export the \(export.isReceipt ? "app receipt" : "JWS") to.", kind: .error)
        return []
      }
      return [export.isReceipt ? .exportReceipt(path: path) : .exportJWS(export.transaction, path: path)]
    case .erase:
      if !export.path.isEmpty { export.path.removeLast() }
      state.sheet = .export(export)
    case .type(let character):
      export.path.append(character)
      state.sheet = .export(export)
    default:
      // One field: nothing to move to.
      break
    }
    return []
  }

  private static func signInIntent(_ intent: KeyIntent, _ form: inout SignInSheet, _ state: inout AppState) -> [AppCommand] {
    switch intent {
    case .cancel:
      state.sheet = nil
      if case .purchase(let id)? = form.purpose, form.app != nil { return [.answerSheet(id, .cancel)] }
      return form.purpose == nil ? [] : [.cancel]
    case .confirm:
      let name = form.account.trimmingCharacters(in: .whitespaces)
      if name.isEmpty {
        form.error = "Type the sandbox tester's account name."
        form.field = .account
        state.sheet = .signIn(form)
        return []
      }
      if form.field == .account && form.password.isEmpty {
        // Enter in the name field moves on to the password, as sign-in forms do.
        form.field = .password
        state.sheet = .signIn(form)
        return []
      }
      form.error = nil
      state.sheet = .signIn(form)
      if case .purchase(let id)? = form.purpose, form.app != nil {
        // The device signs in here (the password is checked here); the app takes the account.
        state.sheet = nil
        return [.signInForAttachedApp(id, name: name, password: form.password)]
      }
      return [.signIn(name: name, password: form.password)]
    case .nextField:
      form.field = form.field == .account ? .password : .account
    case .erase:
      if form.field == .account {
        if !form.account.isEmpty { form.account.removeLast() }
      } else if !form.password.isEmpty {
        form.password.removeLast()
      }
    case .type(let character):
      if form.field == .account { form.account.append(character) } else { form.password.append(character) }
    default:
      return []
    }
    state.sheet = .signIn(form)
    return []
  }

  private static func pageOf(_ sheet: Sheet, _ state: AppState) -> Int {
    max(1, SheetLayout(sheet: sheet, size: state.size).visibleLines - 1)
  }

  private static func scrolled(_ first: Int, _ intent: KeyIntent, limit: Int, page: Int) -> Int {
    let target: Int
    switch intent {
    case .moveUp: target = first - 1
    case .moveDown: target = first + 1
    case .pageUp: target = first - page
    case .pageDown: target = first + page
    case .top: target = 0
    case .bottom: target = limit
    default: target = first
    }
    return min(max(0, target), limit)
  }
}
