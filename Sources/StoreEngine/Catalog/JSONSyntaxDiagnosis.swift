/// Explains why `JSONSerialization` rejected a text: where the first mistake is and how to fix it.
///
/// Foundation reports a byte offset for some mistakes ("Invalid value around character 14") and
/// none for others ("Unexpected end of file"), and never says what to do. This follows the text's
/// brackets, strings and separators (values are never built) to name the mistake precisely:
/// a missing comma or colon, an unclosed bracket in a cut-off file, a bare word.
struct JSONSyntaxDiagnosis: Equatable {
  var offset: Int
  var message: String
  var hint: String

  /// The first mistake in `bytes`, or nil when the structure looks sound (then only Foundation
  /// knows what is wrong).
  static func firstProblem(in bytes: [UInt8], locator: JSONSourceLocator) -> JSONSyntaxDiagnosis? {
    var scanner = Scanner(bytes: bytes, locator: locator)
    return scanner.run()
  }

  private enum Expect {
    case keyOrEnd, key, colon, value, valueOrEnd, commaOrEnd
  }

  private struct Frame {
    var isObject: Bool
    var open: Int
    var expect: Expect
  }

  private struct Scanner {
    let bytes: [UInt8]
    let locator: JSONSourceLocator
    var stack: [Frame] = []
    var topLevelDone = false
    var lastTokenEnd = 0

    init(bytes: [UInt8], locator: JSONSourceLocator) {
      self.bytes = bytes
      self.locator = locator
    }

    mutating func run() -> JSONSyntaxDiagnosis? {
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if JSONSourceLocator.isWhitespace(byte) {
          index += 1
          continue
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          if let problem = beginValue(at: index, isKey: false) { return problem }
          stack.append(Frame(isObject: byte == UInt8(ascii: "{"), open: index, expect: byte == UInt8(ascii: "{") ? .keyOrEnd : .valueOrEnd))
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          let isObject = byte == UInt8(ascii: "}")
          guard let frame = stack.last else {
            return problem(at: index, "unexpected '\(character(byte))' after the end of the JSON document", "delete it; every bracket is already closed")
          }
          if frame.isObject != isObject {
            let (line, column) = locator.position(of: frame.open)
            let opener = frame.isObject ? "{" : "["
            return problem(at: index, "'\(character(byte))' does not match the '\(opener)' opened at line \(line), column \(column)", "close it with '\(frame.isObject ? "}" : "]")', or look for a missing bracket in between")
          }
          if frame.expect == .colon || frame.expect == .value && frame.isObject {
            return problem(at: index, "a key has no value before '\(character(byte))'", "write ': value' after the key, or delete the key")
          }
          stack.removeLast()
          index += 1
          endValue(at: index)
        case UInt8(ascii: ","):
          guard let frame = stack.last, frame.expect == .commaOrEnd else {
            return problem(at: index, "unexpected ','", "delete the extra comma, or add the missing value before it")
          }
          stack[stack.count - 1].expect = frame.isObject ? .key : .value
          index += 1
          lastTokenEnd = index
        case UInt8(ascii: ":"):
          guard let frame = stack.last, frame.expect == .colon else {
            return problem(at: index, "unexpected ':'", "a ':' belongs only between a quoted key and its value")
          }
          stack[stack.count - 1].expect = .value
          index += 1
          lastTokenEnd = index
        case UInt8(ascii: "\""):
          let isKey = stack.last.map { $0.isObject && ($0.expect == .key || $0.expect == .keyOrEnd) } ?? false
          if let problem = beginValue(at: index, isKey: isKey) { return problem }
          let start = index
          index += 1
          var closed = false
          while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "\\") {
              index += 2
              continue
            }
            if current == UInt8(ascii: "\"") {
              index += 1
              closed = true
              break
            }
            if current < 0x20 {
              return problem(at: index, "the string that starts at column \(locator.position(of: start).column) has no closing '\"' before the end of the line", "add the closing '\"' at the end of the string")
            }
            index += 1
          }
          guard closed else {
            return problem(at: start, "this string never ends: the file stops inside it", "add the closing '\"'; the file looks cut off, so also check that nothing else is missing")
          }
          if isKey {
            stack[stack.count - 1].expect = .colon
            lastTokenEnd = index
          } else {
            endValue(at: index)
          }
        default:
          let start = index
          while index < bytes.count, !JSONSourceLocator.isDelimiter(bytes[index]) { index += 1 }
          let word = String(decoding: bytes[start..<index], as: UTF8.self)
          if let problem = beginValue(at: start, isKey: false) { return problem }
          if let first = word.unicodeScalars.first, !(first == "-" || ("0"..."9").contains(first)),
            !["true", "false", "null"].contains(word)
          {
            return problem(at: start, "'\(word)' is not a JSON value", "put text in double quotes (\"\(word)\"), or use true, false, null or a number")
          }
          endValue(at: index)
        }
      }
      if let frame = stack.last {
        let (line, column) = locator.position(of: frame.open)
        let opener = frame.isObject ? "{" : "["
        return problem(at: bytes.count, "the file ends before the JSON is complete: the '\(opener)' opened at line \(line), column \(column) is never closed", "the file looks cut off (truncated); restore its end from version control or a backup, or re-save it from Xcode")
      }
      return nil
    }

    /// Checks that a value (or key) may start at `offset`.
    mutating func beginValue(at offset: Int, isKey: Bool) -> JSONSyntaxDiagnosis? {
      guard let frame = stack.last else {
        if topLevelDone {
          return problem(at: offset, "unexpected text after the end of the JSON document", "a .storekit file holds exactly one top-level object; delete what follows its closing '}'")
        }
        return nil
      }
      switch frame.expect {
      case .commaOrEnd:
        return problem(at: lastTokenEnd, "missing ',' between two \(frame.isObject ? "members" : "elements")", "add a ',' here, after the previous \(frame.isObject ? "member's value" : "element")")
      case .colon:
        return problem(at: lastTokenEnd, "missing ':' after the key", "add ':' between the key and its value")
      case .key, .keyOrEnd:
        if !isKey {
          return problem(at: offset, "expected a quoted key", "object members look like \"key\" : value")
        }
        return nil
      case .value, .valueOrEnd:
        return nil
      }
    }

    mutating func endValue(at offset: Int) {
      lastTokenEnd = offset
      if stack.isEmpty {
        topLevelDone = true
      } else {
        stack[stack.count - 1].expect = .commaOrEnd
      }
    }

    func problem(at offset: Int, _ message: String, _ hint: String) -> JSONSyntaxDiagnosis {
      JSONSyntaxDiagnosis(offset: offset, message: "malformed JSON: " + message, hint: hint)
    }

    func character(_ byte: UInt8) -> Character { Character(Unicode.Scalar(byte)) }
  }
}
