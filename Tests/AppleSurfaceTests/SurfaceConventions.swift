// How this target is written (scripts/surface-count reads it):
//
// - `declarations/*.txt` list every in-scope declaration of Apple's StoreKit 1, StoreKit 2 and StoreKitTest,
//   one key per line (`Type.member(label:)`), as Apple's SDK interfaces declare them.
// - Each surface file names declarations with Apple's signature: a comment line "decl: KEY" precedes the code that
//   uses the declaration so that it compiles only with Apple's names, labels, types, optionality, `throws` and
//   `async` (for instance `let _: (SKPaymentQueue) -> (SKPaymentTransaction) -> Void = SKPaymentQueue.finishTransaction`).
// - The target builds in the Swift 6 language mode here and in the Swift 5 mode in Examples/PurchaseManager,
//   so a key tagged in a file that compiles is a declaration present as Apple declares it.
import StoreKit
import XCTest

/// Keeps a value alive and unused without a warning, as a surface line needs.
@inline(never)
func surfaceUse<T>(_ value: T) { _ = value }
