// `import StoreKit` re-exports Foundation, as Apple's StoreKit does: code that uses `Date`, `URL`,
// `NSDecimalNumber` or `Bundle` after only `import StoreKit` compiles unchanged. On Linux,
// `URLSession` and `URLRequest` live in FoundationNetworking; Apple's Foundation has them, so
// StoreKit brings that too (a receipt validator that posts to a server compiles unchanged).
// `ObservableObject` and `@Published` come with Foundation on Apple's platforms (through Combine),
// which Linux lacks: this package's small `Combine` module provides them (DECISIONS §40).
@_exported import Combine
@_exported import Foundation
#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
