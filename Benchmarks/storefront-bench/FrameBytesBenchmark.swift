import Foundation
import NcursesTerminal
import StoreEngine
import StoreTUI

/// `row_refresh_bytes` and `full_repaint_bytes`: bytes that reach the terminal when one row's status
/// changes, vs a full repaint of the same frame.
///
/// Measured for real: a child (`storefront-bench --present-child`) drives `NcursesTerminal` on a
/// 200×60 pty: first frame, then the frame with one row changed (default incremental mode), then the
/// same frame in `fullFrame` mode (clear + every cell). Markers written between presents split the
/// pty's byte stream. The pure `FrameDiff`/`DrawPlan` text bytes are reported alongside.
enum FrameBytesBenchmark {
  static let markers = ["<<bench-1>>", "<<bench-2>>", "<<bench-3>>"]
  static let changedRow = 7

  static func run(benchPath: String?, scratch: URL, into report: Report) throws {
    let before = FrameContent.table()
    let after = FrameContent.table(purchasedRow: changedRow)
    // DisplayWidth stands in for libc wcwidth here: the plan only sizes the text.
    let width: (Unicode.Scalar) -> Int = { DisplayWidth.of(Character($0)) }
    func textBytes(_ segments: [FrameDiff.Segment]) -> Int {
      DrawPlan.operations(for: segments, in: after, libcWidth: width).reduce(0) { $0 + $1.text.utf8.count }
    }
    report.extra("row_refresh_plan_text_bytes", textBytes(FrameDiff.segments(from: before, to: after)))
    report.extra("full_repaint_plan_text_bytes", textBytes(FrameDiff.segments(from: nil, to: after)))

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
      executable: benchPath, arguments: ["--present-child"], environment: environment,
      columns: FrameContent.size.width, rows: FrameContent.size.height)
    let last = Array(markers[2].utf8)
    guard process.read(timeout: 20, until: { $0.firstRange(of: last) != nil }) != nil else {
      throw BenchError.failed("the present child did not finish: \(process.outputText.suffix(300))")
    }
    _ = process.readToEnd(timeout: 5)
    try process.waitForExit()
    let output = process.output
    var offsets: [Range<Int>] = []
    var from = 0
    for marker in markers {
      guard let range = output.firstRange(of: Array(marker.utf8), from: from) else {
        throw BenchError.failed("marker \(marker) missing from the present child's output")
      }
      offsets.append(range)
      from = range.upperBound
    }
    let firstFrame = offsets[0].lowerBound
    let refresh = offsets[1].lowerBound - offsets[0].upperBound
    let full = offsets[2].lowerBound - offsets[1].upperBound
    report.set("row_refresh_bytes", Double(refresh))
    report.set("full_repaint_bytes", Double(full))
    report.extra("row_refresh_share_of_full", Double(refresh) / Double(full))
    report.extra("first_frame_bytes_with_terminal_setup", firstFrame)
    report.note(
      "row_refresh_bytes",
      "Bytes read from the pty master (xterm-256color, 200×60) between presents by NcursesTerminal: one row's status cell changed (changedRuns mode) vs the same frame in fullFrame mode (clear + all cells). Frames are a stand-in table (FrameContent) until render(state,size) is merged."
    )
  }

  /// The child side: present the three frames on this process's terminal with markers between.
  @MainActor
  static func presentChild() -> Int32 {
    let terminal = NcursesTerminal(options: .init(colors: .automatic, mouse: false))
    do { try terminal.start() } catch {
      FileHandle.standardError.write(Data("present child: \(error)\n".utf8))
      return 1
    }
    func mark(_ index: Int) {
      let bytes = Array(markers[index].utf8)
      bytes.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
    terminal.present(FrameContent.table())
    mark(0)
    terminal.present(FrameContent.table(purchasedRow: changedRow))
    mark(1)
    terminal.repaintMode = .fullFrame
    terminal.present(FrameContent.table(purchasedRow: changedRow))
    mark(2)
    terminal.stop()
    return 0
  }
}
