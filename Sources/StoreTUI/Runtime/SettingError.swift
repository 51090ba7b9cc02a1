/// Why a setting outside the engine (the server fault file) could not be changed, for the status line.
struct SettingError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
