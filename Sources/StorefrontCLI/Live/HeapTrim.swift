import Foundation

/// The C heap's settings for a long-running screen (glibc's `malloc_trim` and `mallopt`, looked up
/// at run time: the Glibc module does not declare them); nothing elsewhere.
enum HeapTrim {
  private typealias Trim = @convention(c) (Int) -> Int32
  private typealias Option = @convention(c) (Int32, Int32) -> Int32
  /// glibc's `M_MMAP_THRESHOLD`.
  private static let mmapThreshold: Int32 = -3

  /// Blocks of 1 MB or more (a catalog file's bytes, the JSON decoder's index of it) get pages of
  /// their own, returned when freed. glibc otherwise raises this threshold to the largest block
  /// freed so far, and the next such blocks land in the heap, where they stay resident.
  static func mapLargeBlocks() {
    guard let symbol = dlsym(nil, "mallopt") else { return }
    _ = unsafeBitCast(symbol, to: Option.self)(mmapThreshold, 1 << 20)
  }

  /// Gives the heap's free pages back to the system.
  static func giveBack() {
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
  }
}
