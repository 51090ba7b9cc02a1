import Foundation
import StoreEngine

/// The Catalog pane's file: opened at launch, saved atomically, watched for other writers (the front
/// end's file watch calls ``catalogFileChanged()``), and sold from at once after every save or reload.
extension AppRuntime {
  /// Makes `path` (the `.storekit` file the store sells from; nil: the built-in catalog) the
  /// Catalog pane's document. `seed` seeds new `internalID`s.
  ///
  /// With `contentHash` (``catalogContentHash(_:)`` of the bytes the store's catalog was decoded
  /// from) the file's bytes are read only when the Catalog pane first shows: a 10,000-product
  /// file's 10 MB are not held by a screen that never edits it. Without it they are read now.
  public func openCatalog(path: String?, seed: UInt64, contentHash: Int? = nil) {
    var editor = CatalogEditor(path: nil, bytes: [], catalog: queue.catalog, seed: seed)
    if let path, let contentHash, FileManager.default.isReadableFile(atPath: path) {
      catalogPath = path
      catalogStamp = Self.stamp(path)
      pendingCatalogHash = contentHash
      editor = CatalogEditor(path: path, bytes: [], catalog: queue.catalog, seed: seed)
    } else if let path, let file = try? CatalogFile.open(path: path) {
      catalogPath = path
      catalogFile = file
      catalogStamp = Self.stamp(path)
      editor = CatalogEditor(path: path, bytes: file.bytes, catalog: queue.catalog, seed: seed)
    }
    send(.catalogOpened(editor))
  }

  /// What ``openCatalog(path:seed:contentHash:)`` compares a file's bytes by, within this process.
  nonisolated public static func catalogContentHash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes.count)
    hasher.combine(bytes: bytes)
    return hasher.finalize()
  }

  /// Reads the file's bytes the first time the Catalog pane shows. A file that no longer has what
  /// the store sells is the pane's as changed on disk: R reloads it, as when it changes later.
  func readPendingCatalog() {
    guard let expected = pendingCatalogHash, let path = catalogPath else { return }
    pendingCatalogHash = nil
    guard let file = try? CatalogFile.open(path: path) else {
      catalogFile = CatalogFile(path: path, bytes: [])
      return send(.catalogChangedOnDisk(true))
    }
    catalogFile = file
    catalogStamp = Self.stamp(path)
    var editor = state.catalogEditor
    editor.bytes = file.bytes
    editor.changedOnDisk = editor.changedOnDisk || file.bytes.withUnsafeBytes(Self.catalogContentHash) != expected
    send(.catalogOpened(editor))
  }

  func saveCatalog(_ bytes: [UInt8], summary: String) throws -> String {
    guard var file = catalogFile else { throw SettingError(message: "The built-in catalog is not a file; nothing was saved.") }
    let catalog: Catalog
    do {
      catalog = try CatalogDecoder().decode(Data(bytes), path: file.path)
    } catch {
      throw SettingError(message: "The edit would leave a catalog that does not load; nothing was saved: \(error)")
    }
    do {
      try file.save(bytes)
    } catch {
      // The form names the file as the pane does, so the message fits the sheet.
      let name = URL(fileURLWithPath: file.path).lastPathComponent
      if case .changedOnDisk = error {
        send(.catalogChangedOnDisk(true))
        throw SettingError(message: "\(name) changed on disk since it was opened; nothing was written. Press Esc, then R to reload it, and make the edit again.")
      }
      throw SettingError(message: error.description.replacingOccurrences(of: file.path, with: name))
    }
    catalogFile = file
    catalogStamp = Self.stamp(file.path)
    try sell(catalog, bytes: bytes)
    let name = URL(fileURLWithPath: file.path).lastPathComponent
    return "Saved \(name): \(summary) (previous version: \(CatalogFile.backupName(of: name)))."
  }

  func reloadCatalog() throws -> String {
    guard let path = catalogPath else { throw SettingError(message: "The built-in catalog has no file to reload.") }
    let file: CatalogFile
    let catalog: Catalog
    do {
      file = try CatalogFile.open(path: path)
      catalog = try CatalogDecoder().decode(Data(file.bytes), path: path)
    } catch {
      throw SettingError(message: "\(error) — the store keeps selling the catalog it had; fix the file (storefront catalog check \(path)) and press R again.")
    }
    catalogFile = file
    catalogStamp = Self.stamp(path)
    try sell(catalog, bytes: file.bytes)
    return "Reloaded \(URL(fileURLWithPath: path).lastPathComponent): \(catalog.products.count) products."
  }

  /// The store sells `catalog` now; its settings that changed become the sandbox's.
  private func sell(_ catalog: Catalog, bytes: [UInt8]) throws {
    try queue.sell(catalog)
    send(.catalogLoaded(bytes: bytes, catalog: catalog))
  }

  /// The path of the Catalog pane's file, which the front end watches; nil for the built-in catalog.
  public var catalogFilePath: String? { catalogPath }

  /// The file watch saw the catalog file written, replaced or removed: tells the pane whether the
  /// file on disk still has what it last read or wrote; reads the file only when its modification
  /// date or size moved (not after this screen's own save).
  public func catalogFileChanged() {
    guard let path = catalogPath else { return }
    let stamp = Self.stamp(path)
    if let last = catalogStamp, last.0 == stamp.0, last.1 == stamp.1 { return }
    catalogStamp = stamp
    if let expected = pendingCatalogHash {
      let current = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { $0.withUnsafeBytes(Self.catalogContentHash) }
      return send(.catalogChangedOnDisk(current != expected))
    }
    guard let file = catalogFile else { return }
    send(.catalogChangedOnDisk(file.changedOnDisk))
  }

  private static func stamp(_ path: String) -> (Date?, Int?) {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.modificationDate] as? Date, (attributes?[.size] as? NSNumber)?.intValue)
  }
}
