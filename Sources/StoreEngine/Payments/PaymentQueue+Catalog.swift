extension PaymentQueue {
  /// Sells `catalog` from now on (the catalog editor saved the file, or it was reloaded), as one
  /// step (``StoreCommand/sellCatalog(_:)``): the Store pane and the next sheet show it, and the
  /// settings the file changed become the sandbox's.
  public func sell(_ catalog: Catalog) throws(EngineError) {
    try perform(.sellCatalog(catalog))
  }
}
