/// How a `displayPrice` written with a comma reads: `"2,99"` can only be 2.99, `"1,000"` could be
/// one thousand or one.
///
/// Catalogs written by hand in a decimal-comma locale carry `"2,99"`; refusing the whole file for
/// it helps nobody when only one reading exists.
enum DecimalCommaPrice: Equatable {
  /// One comma, one or two digits after it, no dot: the comma is a decimal separator.
  case unambiguous(dotted: String)
  /// A comma (and maybe dots) that could mean more than one number (or one that needs a second
  /// look, as `1.000,5`): each way to write it.
  case ambiguous([Reading])
  /// Not a number with a comma at all (letters, a symbol, no comma).
  case none

  /// One way to read an ambiguous price: the text to write, and what it means.
  struct Reading: Equatable {
    var text: String
    var meaning: String
  }

  init(_ text: String) {
    let allowed = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }
    let commas = text.filter { $0 == "," }.count
    guard allowed, commas > 0, text.first?.isNumber == true, text.last?.isNumber == true else {
      self = .none
      return
    }
    let dots = text.filter { $0 == "." }.count
    let afterComma = text.split(separator: ",", omittingEmptySubsequences: false).last?.count ?? 0
    if commas == 1, dots == 0, (1...2).contains(afterComma) {
      self = .unambiguous(dotted: text.replacingOccurrences(of: ",", with: "."))
      return
    }
    var readings: [Reading] = []
    // The comma separates decimals and dots group thousands ("1.000,5", "1,000"), as in de_DE.
    let decimalParts = text.split(separator: ",", omittingEmptySubsequences: false)
    let integer = decimalParts[0]
    if decimalParts.count == 2, integer.allSatisfy(\.isNumber) || Self.isGrouped(integer, by: ".") {
      let decimal = integer.replacingOccurrences(of: ".", with: "") + "." + decimalParts[1]
      readings.append(Reading(text: decimal, meaning: "if the comma separates decimals"))
    }
    // Commas group thousands ("1,000", "1,000.50"), as in en_US.
    let groupedParts = text.split(separator: ".", omittingEmptySubsequences: false)
    if groupedParts.count <= 2, Self.isGrouped(groupedParts[0], by: ","), groupedParts.dropFirst().allSatisfy({ !$0.contains(",") }) {
      readings.append(Reading(text: text.replacingOccurrences(of: ",", with: ""), meaning: "if commas group thousands"))
    }
    self = readings.isEmpty ? .none : .ambiguous(readings)
  }

  /// `1.000.000` grouped by dots: one to three digits, then groups of exactly three.
  private static func isGrouped(_ integer: Substring, by separator: Character) -> Bool {
    let groups = integer.split(separator: separator, omittingEmptySubsequences: false)
    guard let first = groups.first, (1...3).contains(first.count) else { return false }
    return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
      && first.allSatisfy(\.isNumber)
  }
}
