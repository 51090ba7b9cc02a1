import Foundation

/// Random but reproducible scenarios over the built-in catalog: purchases, finishes, restores,
/// renewals, Ask to Buy, interrupted purchases, refunds, cancels, relaunches and account switches.
struct ScenarioGenerator {
  static let prefix = "com.jake.sample.ExInAppPurchase."
  static let nonConsumables: Set<String> = [prefix + "shopping"]
  /// Sandbox testers. No passwords here: PBKDF2 costs a third of a second per sign-in, and
  /// `SecurityTests` covers them.
  static let accounts = ["jake", "ann"]

  var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  /// A script of about `count` steps. It starts by signing in, turning purchase sheets off and
  /// answering a sheet a killed run may have left up.
  mutating func script(steps count: Int) -> String {
    let name = Self.accounts[Int.random(in: 0..<Self.accounts.count, using: &random)]
    var lines = ["account \(name)", "set dialogs off", "confirm"]
    while lines.count < count { lines += step() }
    return lines.joined(separator: "\n") + "\n"
  }

  private mutating func product(_ names: [String]) -> String {
    Self.prefix + names[Int.random(in: 0..<names.count, using: &random)]
  }

  private mutating func step() -> [String] {
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<22: return ["buy \(product(["coins100", "coins500"])) quantity=\(Int.random(in: 1...3, using: &random))"]
    case 22..<28: return ["buy \(product(["shopping"]))"]
    case 28..<32: return ["buy \(product(["seasonpass"]))"]
    case 32..<36: return ["buy \(product(["premium.monthly", "premium.yearly"]))"]
    case 36..<54: return ["finish last"]
    case 54..<59: return ["finish all"]
    case 59..<64: return ["restore"]
    case 64..<70: return ["advance \(["2h", "10d", "40d", "P1M"][Int.random(in: 0..<4, using: &random)])"]
    case 70..<75:
      let answer = Bool.random(using: &random) ? "approve" : "decline"
      return ["set ask-to-buy on", "buy \(product(["coins100", "shopping"]))", "set ask-to-buy off", "\(answer) last"]
    case 75..<79: return ["set interrupted on", "buy \(product(["coins500"]))", "set interrupted off", "resolve last"]
    case 79..<82: return ["refund last"]
    case 82..<86:
      return ["set dialogs on", "buy \(product(["coins100", "seasonpass"]))", Bool.random(using: &random) ? "confirm" : "cancel", "set dialogs off"]
    case 86..<89: return ["relaunch", "set dialogs off"]
    case 89..<92:
      return ["account \(Self.accounts[Int.random(in: 0..<Self.accounts.count, using: &random)])"]
    case 92..<95: return ["request \(product(["coins100", "shopping", "premium.monthly"])) \(Self.prefix)missing"]
    default: return ["buy \(product(["coins100"]))", "finish last"]
    }
  }
}
