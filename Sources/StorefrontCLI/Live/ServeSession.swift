import Foundation
import SQLiteLedger
import ServerNotifications
import StoreEngine
import StoreServer

/// The App Store Server API started over a data directory: what `storefront serve` and the TUI's
/// `--serve` share. Its own ledger connection, the key ring, Apple's token rules, the gateway and
/// the endpoints, behind a libmicrohttpd server that is listening once `start` returns.
final class ServeSession: Sendable {
  /// Why the server did not start.
  enum Failure: Error {
    /// The served store could not be opened (its ledger damaged, locked or not writable; its CA).
    case store(CLIFailure)
    /// `api-keys.json` could not be read.
    case keys(APIKeyStoreError)
    /// The address could not be bound.
    case listen(HTTPServerError)
    /// The notification URL could not be set, or the deliverer could not start (the message).
    case notifications(String)
  }

  /// `Sandbox` or `Production`.
  let environment: String
  let bundleID: String
  /// Keys registered and not revoked when the server started.
  let activeKeyCount: Int
  private let server: HTTPServer
  private let scheme: String
  private let deliverer: NotificationDeliverer?

  /// The address actually bound (the real port when port 0 was asked for).
  var boundAddress: ListenAddress { server.boundAddress }
  /// `http://ADDR:PORT` (`https` with TLS).
  var url: String { "\(scheme)://\(server.boundAddress)" }

  private init(
    environment: String, bundleID: String, activeKeyCount: Int, server: HTTPServer, scheme: String, deliverer: NotificationDeliverer?
  ) {
    self.environment = environment
    self.bundleID = bundleID
    self.activeKeyCount = activeKeyCount
    self.server = server
    self.scheme = scheme
    self.deliverer = deliverer
  }

  /// Opens a store of its own over `global`'s data directory (making it, 0700, if missing) and starts listening.
  ///
  /// - Parameters:
  ///   - catalog: The products the served store's engine commands (extensions, consumption) know.
  ///   - configuration: Where and how to listen (TLS, limits).
  ///   - clock: Where a fresh ledger's clock starts (``ClockChoice``); a ledger with one keeps it.
  ///   - recordsDetails: Whether log entries carry ``RequestDetails`` (the decoded token, the response body).
  ///   - log: Called once per request, on the server's threads.
  ///   - ledgerConnection: Who hears about a shared ledger's lost connection (`serve`: its standard error).
  static func start(
    catalog: Catalog, global: GlobalOptions, processEnvironment: [String: String], keys: APIKeyStore,
    configuration: HTTPServerConfiguration, environment: String, bundleID: String, clock: ClockChoice, recordsDetails: Bool = false,
    delivery: ServeDelivery = ServeDelivery(), ledgerConnection: LedgerConnectionWatch = .quiet,
    log: @escaping @Sendable (RequestLogEntry) -> Void
  ) throws(Failure) -> ServeSession {
    let store: LiveStore
    do throws(CLIFailure) {
      // Opened first so a damaged ledger stops the server before it listens. The clock is the
      // ledger's: the server never moves it on its own (`clock` only starts a fresh ledger's).
      store = try LiveStore.open(
        catalog: catalog, global: global, environment: processEnvironment, clock: clock,
        signingEnvironment: environment, ledgerConnection: ledgerConnection)
    } catch {
      throw .store(error)
    }
    let retention: RetentionMessagingStore
    do throws(CLIFailure) { retention = try store.retentionMessaging() } catch { throw .store(error) }
    let registry: APIKeyRegistry?
    do throws(APIKeyStoreError) { registry = try keys.load() } catch { throw .keys(error) }
    let verifier = BearerTokenVerifier(keys: APIKeyRing(store: keys), bundleIDs: [bundleID], now: Date.init)
    let gateway = APIGateway(
      verifier: verifier, requestID: { UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(26).uppercased() },
      recordsDetails: recordsDetails,
      endpoints: ServeEndpoints.make(
        store: store, retention: retention, environment: environment, bundleID: bundleID, appAppleID: delivery.appAppleID))
    let receipts: VerifyReceiptHandler
    do throws(LedgerError) {
      receipts = try ServeEndpoints.verifyReceipt(store: store, environment: environment, bundleID: bundleID)
    } catch {
      throw .store(CLIFailure(error))
    }
    let server: HTTPServer
    do throws(HTTPServerError) {
      // verifyReceipt takes no bearer token (Apple's does not); everything else goes through the gateway.
      server = try HTTPServer(
        configuration: configuration,
        handler: { request in
          request.path == VerifyReceiptHandler.path ? receipts.answer(request) : try gateway.reply(to: request)
        }, log: log)
    } catch {
      throw .listen(error)
    }
    let deliverer: NotificationDeliverer?
    do throws(Failure) {
      deliverer = try startDelivery(delivery, store: store, global: global, environment: environment, bundleID: bundleID)
    } catch {
      server.stop()
      throw error
    }
    return ServeSession(
      environment: environment, bundleID: bundleID, activeKeyCount: registry?.keys.filter { !$0.isRevoked }.count ?? 0,
      server: server, scheme: configuration.scheme, deliverer: deliverer)
  }

  /// Sets `--notify`'s URL through the engine (so every process queues from then on) and starts the
  /// deliverer on its own ledger connection.
  private static func startDelivery(
    _ delivery: ServeDelivery, store: LiveStore, global: GlobalOptions, environment: String, bundleID: String
  ) throws(Failure) -> NotificationDeliverer {
    if let url = delivery.notifyURL {
      do throws(EngineError) {
        try store.queue.refresh()
        _ = try store.queue.perform(.setNotificationURL(environment: environment, url: url.text))
      } catch {
        throw .notifications("the notification URL could not be set: \(error)")
      }
    }
    let configuration = DeliveryConfiguration(
      environment: environment, bundleID: bundleID, appAppleID: delivery.appAppleID, retriesInSandbox: delivery.retriesInSandbox,
      client: delivery.client)
    do throws(DeliveryError) {
      return try NotificationDeliverer(
        source: store.location.deliverySource, signer: store.authority.signer(environment: environment), configuration: configuration,
        proposedNamespace: global.seed.map(NotificationUUID.namespace(seed:)) ?? NotificationUUID.randomNamespace(),
        log: delivery.log)
    } catch {
      throw .notifications("notifications cannot be delivered: \(error)")
    }
  }

  /// Stops delivering (after the attempt in flight) and accepting, and waits for requests in flight; safe to call twice.
  func stop() {
    deliverer?.stop()
    server.stop()
  }
}
