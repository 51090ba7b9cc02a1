import Foundation
import NcursesTerminal
import StoreEngine
import StoreTUI

/// `row_refresh_bytes` and `full_repaint_bytes`: bytes that reach the terminal when one row's status
/// changes, vs a full repaint of the same frame.
///
/// Measured for real: a child (`storefront-bench --present-child CATALOG`) builds the store's states
/// from the 10k catalog (``StoreStates/changes(_:)``), draws them with `render(state)` and presents
/// them with `NcursesTerminal` (as the app does) on a 200×60 pty. For each change: the frame before,
/// then the frame after (default `changedRuns` mode), then the frame after again in `fullFrame` mode
/// (clear + every cell). Markers written between presents split the pty's byte stream. The pure
/// `FrameDiff`/`DrawPlan` text bytes are reported alongside.
enum FrameBytesBenchmark {
  static let flag = "--present-child"

  static func marker(_ index: Int) -> [UInt8] { Array("<<bench-\(index)>>".utf8) }

  static func run(benchPath: String?, catalog: Catalog, catalogPath: String, scratch: URL, into report: Report) throws {
    let changes = try StoreStates.changes(catalog)
    // DisplayWidth stands in for libc wcwidth here: the plan only sizes the text.
    let width: (Unicode.Scalar) -> Int = { DisplayWidth.of(Character($0)) }
    for change in changes {
      let before = render(change.before)
      let after = render(change.after)
      func textBytes(_ segments: [FrameDiff.Segment]) -> Int {
        DrawPlan.operations(for: segments, in: after, libcWidth: width).reduce(0) { $0 + $1.text.utf8.count }
      }
      let changedRows = (0..<after.size.height).filter { y in
        (0..<after.size.width).contains { x in before[x, y] != after[x, y] }
      }
      report.extra("\(change.name)_changed_screen_rows", changedRows.count)
      report.extra("\(change.name)_plan_text_bytes", textBytes(FrameDiff.segments(from: before, to: after)))
    }
    report.extra("full_repaint_plan_text_bytes", textBytes(of: changes[0], width: width))

    guard let benchPath else {
      report.note("row_refresh_bytes", "could not find this executable to start the pty child.")
      report.note("full_repaint_bytes", "could not find this executable to start the pty child.")
      return
    }
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path,
      "TERM": "xterm-256color", "LANG": "C.UTF-8",
    ]
    let process = try PtyProcess(
      executable: benchPath, arguments: [flag, catalogPath], environment: environment,
      columns: StoreStates.size.width, rows: StoreStates.size.height)
    defer { process.stop() }
    let markerCount = changes.count * 3
    let last = marker(markerCount - 1)
    guard process.read(timeout: 60, until: { $0.firstRange(of: last) != nil }) != nil else {
      throw BenchError.failed("the present child did not finish: \(process.outputText.suffix(300))")
    }
    _ = process.readToEnd(timeout: 5)
    let status = try process.waitForExit().status
    guard status == 0 else { throw BenchError.failed("the present child exited \(status): \(process.outputText.suffix(300))") }
    let output = process.output
    var offsets: [Range<Int>] = []
    var from = 0
    for index in 0..<markerCount {
      guard let range = output.firstRange(of: marker(index), from: from) else {
        throw BenchError.failed("marker \(index) missing from the present child's output")
      }
      offsets.append(range)
      from = range.upperBound
    }
    report.extra("first_frame_bytes_with_terminal_setup", offsets[0].lowerBound)
    for (number, change) in changes.enumerated() {
      let base = number * 3
      let refresh = offsets[base + 1].lowerBound - offsets[base].upperBound
      let full = offsets[base + 2].lowerBound - offsets[base + 1].upperBound
      report.extra("\(change.name)_refresh_bytes", refresh)
      report.extra("\(change.name)_full_repaint_bytes", full)
      report.extra("\(change.name)_share_of_full", Double(refresh) / Double(full))
      if number == 0 {
        report.set("row_refresh_bytes", Double(refresh))
        report.set("full_repaint_bytes", Double(full))
        report.extra("row_refresh_share_of_full", Double(refresh) / Double(full))
      }
    }
    report.note(
      "row_refresh_bytes",
      "Bytes read from the pty master (xterm-256color, 200×60) while NcursesTerminal presents render(state) of the 10k store: one row's status goes from 'bought ×1' to 'bought ×2' (a purchase event reduced into the state; its notice cleared, so only that row differs), default changedRuns mode. Also measured: purchase_event_* (the same event with its notice line and '1 unfinished' tab summary) and first_status_* (the first status on a screen with none, which widens the Status column)."
    )
    report.note("full_repaint_bytes", "the same after-frame presented in fullFrame mode (clear + every cell).")
  }

  private static func textBytes(of change: StoreStates.Change, width: @escaping (Unicode.Scalar) -> Int) -> Int {
    let after = render(change.after)
    return DrawPlan.operations(for: FrameDiff.segments(from: nil, to: after), in: after, libcWidth: width)
      .reduce(0) { $0 + $1.text.utf8.count }
  }

  /// The child side: present each change's frames on this process's terminal with markers between.
  @MainActor
  static func presentChild(_ arguments: [String]) -> Int32 {
    let changes: [StoreStates.Change]
    do {
      guard arguments.count == 1 else { throw BenchError.failed("usage: storefront-bench \(flag) CATALOG") }
      let data = try Data(contentsOf: URL(fileURLWithPath: arguments[0]))
      changes = try StoreStates.changes(CatalogDecoder().decode(data, path: arguments[0]))
    } catch {
      FileHandle.standardError.write(Data("present child: \(error)\n".utf8))
      return 1
    }
    let terminal = NcursesTerminal()
    do { try terminal.start() } catch {
      FileHandle.standardError.write(Data("present child: \(error)\n".utf8))
      return 1
    }
    var next = 0
    func mark() {
      marker(next).withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      next += 1
    }
    for change in changes {
      terminal.repaintMode = .changedRuns
      terminal.present(render(change.before))
      mark()
      terminal.present(render(change.after))
      mark()
      terminal.repaintMode = .fullFrame
      terminal.present(render(change.after))
      mark()
    }
    terminal.stop()
    return 0
  }
}
