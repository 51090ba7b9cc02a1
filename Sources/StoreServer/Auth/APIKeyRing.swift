import Foundation
import SandboxSigning
import StoreEngine

/// The keys a running server trusts, re-read whenever `api-keys.json` changes (checked on every
/// request, one `stat`), so a key made or revoked by another `storefront keys` process counts at once.
public final class APIKeyRing: Sendable {
  /// A registered key with its parsed public half.
  struct Entry {
    var key: APIKey
    var publicKey: ES256PublicKey?
  }

  /// What identifies one version of the file: a rename gives a new inode, a rewrite a new mtime.
  private struct FileStamp: Equatable {
    var inode: UInt
    var seconds: Int
    var nanoseconds: Int
    var size: Int
  }

  private struct Loaded {
    var stamp: FileStamp?
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
        if stamp != nil, let registry = try? store.load() {
          for key in registry.keys {
            state.entries[key.keyID] = Entry(key: key, publicKey: try? ES256PublicKey(pem: Data(key.publicKeyPEM.utf8)))
          }
        }
      }
      return state.entries[keyID]
    }
  }

  private func currentStamp() -> FileStamp? {
    var info = stat()
    guard stat(store.registryURL.path, &info) == 0 else { return nil }
    return FileStamp(
      inode: UInt(info.st_ino), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
  }
}
