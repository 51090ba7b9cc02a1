// `import StoreKit` re-exports Foundation, as Apple's StoreKit does: code that uses `Date`, `URL`,
// `NSDecimalNumber` or `Bundle` after only `import StoreKit` compiles unchanged.
@_exported import Foundation
