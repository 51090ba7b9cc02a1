import Foundation
import SandboxSigning
import StoreEngine

/// The keys a running server trusts, re-read whenever `api-keys.json` changes (checked on every
/// request: one `stat`, or on a shared storage one read of the registry), so a key made or revoked
/// by another `storefront keys` process, on any machine of a shared ledger, counts at once.
public final class APIKeyRing: Sendable {
  /// A registered key with its parsed public half.
  struct Entry {
    var key: APIKey
    var publicKey: ES256PublicKey?
  }

  /// What identifies one version of the registry.
  private enum Stamp: Equatable {
    /// A file: a rename gives a new inode, a rewrite a new mtime.
    case file(inode: UInt, seconds: Int, nanoseconds: Int, size: Int)
    /// A shared storage's registry: its bytes (a few KB), read per request.
    case contents(Data)
  }

  private struct Loaded {
    var stamp: Stamp?
    var entries: [String: Entry] = [:]
  }

  public let store: APIKeyStore
  private let loaded = Locked(Loaded())

  public init(store: APIKeyStore) { self.store = store }

  /// The key `keyID` as the file says now; nil when unknown or the file is unreadable.
  func entry(_ keyID: String) -> Entry? {
    let stamp = currentStamp()
    return loaded.withLock { state in
      if state.stamp != stamp || stamp == nil {
        state.entries = [:]
        state.stamp = stamp
        if let stamp, let registry = try? registry(stamp) {
          for key in registry.keys {
            state.entries[key.keyID] = Entry(key: key, publicKey: try? ES256PublicKey(pem: Data(key.publicKeyPEM.utf8)))
          }
        }
      }
      return state.entries[keyID]
    }
  }

  private func registry(_ stamp: Stamp) throws(APIKeyStoreError) -> APIKeyRegistry? {
    guard case .contents(let data) = stamp else { return try store.load() }
    return try APIKeyStore.decode(data, location: store.registryLocation)
  }

  private func currentStamp() -> Stamp? {
    if store.storage != nil { return (try? store.registryData()).flatMap { $0 }.map(Stamp.contents) }
    var info = stat()
    guard stat(store.registryURL.path, &info) == 0 else { return nil }
    return .file(
      inode: UInt(info.st_ino), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
  }
}
