import StorefrontProcessTestSupport
import XCTest

extension AppleVerifier {
  /// Apple's library in the venv the tests create. Skips only when pip cannot install it (PyPI
  /// unreachable); without python3-venv, which scripts/setup installs, the test fails.
  static func preparedOrSkipped() throws -> AppleVerifier {
    do {
      return try prepare()
    } catch let unavailable as Unavailable where unavailable.reason == .packagesNotInstalled {
      throw XCTSkip(unavailable.description)
    }
  }
}
