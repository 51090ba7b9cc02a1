// swift-tools-version: 6.0
import Foundation
import PackageDescription

// An app's own purchase code, written against Apple's StoreKit API only, built and unit-tested on
// Linux with Storefront's `StoreKit` and `StoreKitTest` products (Docs/storekit-library.md).
//
// The repository is a path dependency; its package identity is its directory's name.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let storefront = repository.lastPathComponent

// `PURCHASE_MANAGER_SWIFT5=1 swift build` compiles the example in the Swift 5 language mode, to show the
// same code compiles in both (scripts/test-examples does both).
let mode: SwiftLanguageMode = ProcessInfo.processInfo.environment["PURCHASE_MANAGER_SWIFT5"] == nil ? .v6 : .v5

let package = Package(
  name: "PurchaseManager",
  products: [
    .executable(name: "purchase-manager", targets: ["purchase-manager"])
  ],
  dependencies: [
    .package(path: repository.path)
  ],
  targets: [
    .target(
      name: "PurchaseManager",
      dependencies: [.product(name: "StoreKit", package: storefront)],
      swiftSettings: [.swiftLanguageMode(mode)]
    ),
    .executableTarget(
      name: "purchase-manager",
      dependencies: ["PurchaseManager", .product(name: "StoreKit", package: storefront)],
      swiftSettings: [.swiftLanguageMode(mode)]
    ),
    .testTarget(
      name: "PurchaseManagerTests",
      dependencies: [
        "PurchaseManager", .product(name: "StoreKit", package: storefront), .product(name: "StoreKitTest", package: storefront),
      ],
      resources: [.copy("Resources/Products.storekit")],
      swiftSettings: [.swiftLanguageMode(mode)]
    ),
    // The repository's Apple-surface tests (a link to Tests/AppleSurfaceTests), built here in both
    // language modes: Apple's declarations, named with Apple's signatures, compile in Swift 5 and 6.
    .testTarget(
      name: "AppleSurfaceTests",
      dependencies: [.product(name: "StoreKit", package: storefront), .product(name: "StoreKitTest", package: storefront)],
      exclude: ["declarations"],
      swiftSettings: [.swiftLanguageMode(mode)]
    ),
  ]
)
