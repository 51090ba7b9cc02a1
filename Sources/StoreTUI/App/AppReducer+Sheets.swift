import StoreEngine

extension AppReducer {
  /// Keys while a sheet is up: the sheet gets them all.
  static func sheetKey(_ key: Key, _ sheet: Sheet, _ state: inout AppState) -> [AppCommand] {
    let confirms = key == .enter || key == .char("y")
    let cancels = key == .escape || key == .char("n")
    switch sheet {
    case .purchase:
      if confirms {
        state.sheet = nil
        return [.confirm]
      }
      if cancels {
        state.sheet = nil
        return [.cancel]
      }
      return []
    case .signIn(var form):
      return signInKey(key, &form, &state)
    case .askToBuy:
      if confirms || cancels || key == .char(" ") { state.sheet = nil }
      return []
    case .confirm(let question):
      if confirms {
        state.sheet = nil
        return [question.command]
      }
      if cancels { state.sheet = nil }
      return []
    case .help(let first):
      if cancels || confirms || key == .char("?") || key == .char("q") {
        state.sheet = nil
        return []
      }
      let limit = SheetLayout.scrollLimit(sheet: sheet, size: state.size)
      state.sheet = .help(firstRow: scrolled(first, key, limit: limit, page: pageOf(sheet, state)))
      return []
    case .jws(var detail):
      if cancels || confirms || key == .char("v") || key == .char("q") {
        state.sheet = nil
        return []
      }
      let limit = SheetLayout.scrollLimit(sheet: sheet, size: state.size)
      detail.firstRow = scrolled(detail.firstRow, key, limit: limit, page: pageOf(sheet, state))
      state.sheet = .jws(detail)
      return []
    case .export(var export):
      switch key {
      case .escape:
        state.sheet = nil
      case .enter:
        state.sheet = nil
        let path = export.path.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else {
          state.notice = Notice("Type a file path to export the JWS to.", kind: .error)
          return []
        }
        return [.exportJWS(export.transaction, path: path)]
      case .backspace, .delete:
        if !export.path.isEmpty { export.path.removeLast() }
        state.sheet = .export(export)
      case .char(let c):
        export.path.append(c)
        state.sheet = .export(export)
      default:
        break
      }
      return []
    }
  }

  private static func signInKey(_ key: Key, _ form: inout SignInSheet, _ state: inout AppState) -> [AppCommand] {
    switch key {
    case .escape:
      state.sheet = nil
      return form.purpose == nil ? [] : [.cancel]
    case .enter:
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
      return [.signIn(name: name, password: form.password)]
    case .tab, .backTab, .up, .down:
      form.field = form.field == .account ? .password : .account
    case .backspace, .delete:
      if form.field == .account {
        if !form.account.isEmpty { form.account.removeLast() }
      } else if !form.password.isEmpty {
        form.password.removeLast()
      }
    case .char(let c):
      if form.field == .account { form.account.append(c) } else { form.password.append(c) }
    default:
      return []
    }
    state.sheet = .signIn(form)
    return []
  }

  private static func pageOf(_ sheet: Sheet, _ state: AppState) -> Int {
    max(1, SheetLayout(sheet: sheet, size: state.size).visibleLines - 1)
  }

  private static func scrolled(_ first: Int, _ key: Key, limit: Int, page: Int) -> Int {
    let target: Int
    switch key {
    case .up, .char("k"): target = first - 1
    case .down, .char("j"): target = first + 1
    case .pageUp: target = first - page
    case .pageDown, .char(" "): target = first + page
    case .home: target = 0
    case .end: target = limit
    default: target = first
    }
    return min(max(0, target), limit)
  }
}
