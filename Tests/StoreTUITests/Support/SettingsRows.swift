import StoreTUI
import Testing

/// Keys sent to a runtime, in order.
@MainActor
func press(_ runtime: AppRuntime, _ keys: Key...) {
  for key in keys { runtime.send(.key(key)) }
}

/// Opens the Settings pane (3) and moves the selection to `item`'s row, as a tester would.
@MainActor
func selectSettingsRow(_ item: SettingsItem, _ runtime: AppRuntime) throws {
  press(runtime, .char("3"), .home)
  let row = try #require(SettingsItem.all.firstIndex(of: item))
  for _ in 0..<row { press(runtime, .down) }
}
