import SimulatedApp

extension LineParser {
  /// `app finishes manually|at-once|after-server URL`.
  mutating func appFinishes() throws(ScenarioIssue) -> ScenarioStep.Action {
    let what = try next("finishes")
    guard what.text == "finishes" else {
      throw issue(what.column, "Unknown app setting '\(what.text)'; use `app finishes manually|at-once|after-server URL`.")
    }
    let mode = try next("manually, at-once or after-server URL")
    var text = mode.text
    if mode.text == "after-server", let url = positionals.first {
      positionals.removeFirst()
      text += " " + url.text
    }
    do {
      return .appFinishes(try AppFinishMode(parsing: text))
    } catch {
      throw issue(mode.column, error.description)
    }
  }
}
