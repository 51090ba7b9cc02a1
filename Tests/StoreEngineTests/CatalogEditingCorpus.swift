import Foundation
import XCTest

@testable import StoreEngine

/// The catalogs the editor is held to: every fixture of ours (Xcode formats 1.0 through 6.3, a
/// hand-edited file in another style, a minified one), plus `../shared/storekit-samples` when it
/// is there, each also with CRLF line endings and with a byte order mark.
enum CatalogEditingCorpus {
  static func files() throws -> [(name: String, bytes: [UInt8])] {
    let fixtures = try FileManager.default.contentsOfDirectory(atPath: CatalogTestFiles.fixture("").path)
      .filter { ($0.hasPrefix("format-") || $0.hasPrefix("hand-")) && $0.hasSuffix(".storekit") }.sorted().map(CatalogTestFiles.fixture)
    let samples = (try? FileManager.default.contentsOfDirectory(atPath: CatalogTestFiles.sharedSamples.path))?
      .filter { $0.hasSuffix(".storekit") }.sorted().map { CatalogTestFiles.sharedSamples.appendingPathComponent($0) } ?? []
    var files: [(String, [UInt8])] = []
    for url in fixtures + samples {
      let bytes = Array(try Data(contentsOf: url))
      files.append((url.lastPathComponent, bytes))
      let crlf = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        .replacingOccurrences(of: "\n", with: "\r\n").utf8)
      files.append((url.lastPathComponent + " (CRLF)", crlf))
      files.append((url.lastPathComponent + " (BOM)", [0xEF, 0xBB, 0xBF] + bytes))
    }
    return files
  }

  /// The file's lines, split at LF (a CRLF line keeps its CR).
  static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Whether every line of `old` is in `new`, in order, except that one may have gained a comma
  /// (the line that closed the last element before an addition), and the blank line inside an
  /// empty array (`[\n\n  ]`, as Xcode writes it) may go: what an addition may do to a file.
  static func onlyAdds(_ old: [String], to new: [String]) -> Bool {
    var index = 0
    for line in old where !line.allSatisfy({ $0 == " " || $0 == "\r" }) {
      while index < new.count, new[index] != line, !(commaAdded(line, new[index])) { index += 1 }
      guard index < new.count else { return false }
      index += 1
    }
    return true
  }

  private static func commaAdded(_ old: String, _ new: String) -> Bool {
    let trimmed = old.hasSuffix("\r") ? String(old.dropLast()) : old
    return new == trimmed + "," + (old.hasSuffix("\r") ? "\r" : "")
  }

  /// Fails with the first line that differs, not two arrays of bytes.
  static func assertSameBytes(_ actual: [UInt8], _ expected: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    guard actual != expected else { return }
    let (new, old) = (lines(actual), lines(expected))
    let index = (0..<min(new.count, old.count)).first { new[$0] != old[$0] } ?? min(new.count, old.count)
    XCTFail("\(message): line \(index + 1) differs: \(index < new.count ? new[index] : "(end)") vs \(index < old.count ? old[index] : "(end)") (\(new.count) vs \(old.count) lines)", file: file, line: line)
  }
}
