import AppStoreServerAPI
import Foundation
import StoreServer

/// The endpoints `storefront serve` answers with: the one place the App Store Server API module is wired in.
enum ServeEndpoints {
  /// - Parameters:
  ///   - ledgerFile: The data directory's shared ledger, checked to open before the server starts.
  ///   - environment: `Sandbox` or `Production`, the store the answers come from.
  ///
  /// Until the endpoint handlers land every authenticated request gets Apple's 404 for an unknown
  /// transaction, so clients see the error shape they will see for a wrong id.
  static func make(ledgerFile: URL, environment: String, bundleID: String) -> APIGateway.Endpoints {
    return { _ in
      APIResponse(status: 404, body: Data(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#.utf8))
    }
  }
}
