import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Rows of text cells written to an unlinked temporary file and read back in order: a table
/// whose column widths depend on every row is formatted in one walk of the history (the cells go
/// to the file while the widths are measured), then padded from the file, so memory stays a
/// buffer's worth whatever the history's length and each row is decoded once.
///
/// The file is unlinked as soon as it is made: nothing is left behind if the process dies. Each
/// cell is its UTF-8 length (4 bytes, little endian) and bytes, so no character needs escaping.
final class RowSpill {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private static let bufferSize = 1 << 16
  /// Rows written.
  private(set) var count = 0

  /// A spill file in `directory`; nil when none can be made (the caller then walks twice).
  init?(directory: String = NSTemporaryDirectory()) {
    var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
    template += Array("storefront-rows-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
    guard made >= 0 else { return nil }
    template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
    descriptor = made
    buffer.reserveCapacity(Self.bufferSize + 4096)
  }

  deinit { close(descriptor) }

  /// Appends one row of cells.
  func append(_ cells: [String]) throws(SpillError) {
    append(length: UInt32(cells.count))
    for cell in cells {
      var cell = cell
      cell.withUTF8 { bytes in
        append(length: UInt32(bytes.count))
        buffer.append(contentsOf: bytes)
      }
    }
    count += 1
    if buffer.count >= Self.bufferSize { try flush() }
  }

  /// Hands each row back to `body`, in the order written.
  func forEach(_ body: ([String]) -> Void) throws(SpillError) {
    try flush()
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SpillError(errno: errno) }
    var reader = Reader(descriptor: descriptor)
    for _ in 0..<count {
      let cellCount = try reader.length()
      var cells: [String] = []
      cells.reserveCapacity(cellCount)
      for _ in 0..<cellCount { cells.append(try reader.string(length: reader.length())) }
      body(cells)
    }
  }

  private func append(length: UInt32) {
    buffer.append(UInt8(length & 0xFF))
    buffer.append(UInt8((length >> 8) & 0xFF))
    buffer.append(UInt8((length >> 16) & 0xFF))
    buffer.append(UInt8(length >> 24))
  }

  private func flush() throws(SpillError) {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes in
        write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw SpillError(errno: errno)
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Reads the file back a buffer at a time.
  private struct Reader {
    let descriptor: Int32
    var bytes: [UInt8] = []
    var position = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func length() throws(SpillError) -> Int {
      try need(4)
      let value = Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16
        | Int(bytes[position + 3]) << 24
      position += 4
      return value
    }

    mutating func string(length: Int) throws(SpillError) -> String {
      try need(length)
      let text = String(decoding: bytes[position..<(position + length)], as: UTF8.self)
      position += length
      return text
    }

    /// Makes `count` bytes available at `position`, reading more of the file as needed.
    private mutating func need(_ count: Int) throws(SpillError) {
      guard bytes.count - position < count else { return }
      bytes.removeFirst(position)
      position = 0
      var chunk = [UInt8](repeating: 0, count: max(RowSpill.bufferSize, count))
      while bytes.count < count {
        let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if read < 0 && errno == EINTR { continue }
        guard read > 0 else { throw SpillError(errno: read < 0 ? errno : EIO) }
        bytes.append(contentsOf: chunk[0..<read])
      }
    }
  }
}

/// A spill file could not be written or read back.
struct SpillError: Error {
  var errno: Int32
  var description: String { String(cString: strerror(errno)) }
}
