import Foundation

/// Gives the C heap's free pages back to the system (glibc's `malloc_trim`, looked up at run time:
/// the Glibc module does not declare it); nothing elsewhere.
enum HeapTrim {
  private typealias Trim = @convention(c) (Int) -> Int32

  static func giveBack() {
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
  }
}
