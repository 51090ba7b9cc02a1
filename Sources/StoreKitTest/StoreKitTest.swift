// `import StoreKitTest` brings StoreKit's types, as Apple's framework does (its module re-exports
// StoreKit): a test file that imports only StoreKitTest can name `Product` and `SKError`.
@_exported import StoreKit
