import Foundation
import StoreEngine

/// The Catalog pane's document: the `.storekit` file's text as last read or saved, the catalog it
/// decodes to, and the rows of its tree. Edits are made on the text (``CatalogTextEditor``), so a
/// save changes only what was edited.
public struct CatalogEditor: Equatable, Sendable {
  /// The file; nil for the built-in catalog, which is shown but not edited.
  public var path: String?
  /// The file's bytes as the storefront last read or wrote them.
  public var bytes: [UInt8]
  public var catalog: Catalog
  /// The file on disk no longer has ``bytes``: another editor or process wrote it.
  public var changedOnDisk = false
  /// Seeds the next edit's new `internalID`s (advanced by every edit).
  public var seed: UInt64

  public init(path: String?, bytes: [UInt8], catalog: Catalog, seed: UInt64) {
    self.path = path
    self.bytes = bytes
    self.catalog = catalog
    self.seed = seed
  }

  /// One row of the tree.
  public enum Row: Equatable, Sendable {
    case settings
    /// A section title: "Products", "Non-renewing subscriptions", "Group Pro".
    case heading(String, group: String?)
    case product(Product.ID)
  }

  /// The tree: settings, the products, the non-renewing subscriptions, then each group with its
  /// subscriptions by level.
  public var rows: [Row] {
    var rows: [Row] = [.settings]
    let plain = catalog.products.filter { $0.kind == .consumable || $0.kind == .nonConsumable }
    rows.append(.heading("Products (\(plain.count))", group: nil))
    rows += plain.map { .product($0.id) }
    let renewing = catalog.products.filter { $0.kind == .nonRenewingSubscription }
    if !renewing.isEmpty {
      rows.append(.heading("Non-renewing subscriptions (\(renewing.count))", group: nil))
      rows += renewing.map { .product($0.id) }
    }
    for group in catalog.subscriptionGroups {
      let members = group.productIDs.compactMap(catalog.product).sorted { ($0.subscription?.level ?? 0) < ($1.subscription?.level ?? 0) }
      rows.append(.heading("Group \(group.name) (\(members.count))", group: group.id))
      rows += members.map { .product($0.id) }
    }
    return rows
  }

  /// A text editor on the document, seeded for this edit.
  func textEditor() -> CatalogTextEditor { CatalogTextEditor(bytes: bytes, seed: seed) }

  /// The file's name for messages.
  public var name: String { path.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "the built-in catalog" }

  /// Why the document cannot be edited now, if it cannot.
  var refusal: String? {
    if path == nil { return "The built-in catalog is not a file: run storefront catalog new Store.storekit, then storefront --catalog Store.storekit, to edit one." }
    if changedOnDisk { return "\(name) changed on disk: press R to reload it before editing." }
    return nil
  }
}
