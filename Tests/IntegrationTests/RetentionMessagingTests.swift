import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Retention Messaging end to end: Apple's Python `AppStoreServerAPIClient` configures `storefront
/// serve` (images, messages, defaults, the realtime URL, a performance test against a real endpoint),
/// then `storefront run`'s `cancel-flow` calls that endpoint with Apple's signed request, which Apple's
/// `SignedDataVerifier.verify_and_decode_realtime_request` accepts, and shows what it answered, or
/// the default message when the answer is junk, names another group's product, an unknown message,
/// or never comes.
final class RetentionMessagingTests: XCTestCase {
  private static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  private static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
  private static let image = "8d3c2a8e-2b9c-4c1e-9d55-5d8e9a1f0c01"
  private static let message = "0b0f6c7e-93a4-4d4e-8f3e-1f0d2c9b7a10"
  private static let second = "5e1b7c2d-4a3f-4b8e-9c6d-7e8f9a0b1c2d"

  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
    var bundleId: String
  }

  private struct Step: Decodable {
    var name: String
    var ok: Bool
    var http_status: Int?
    var raw_api_error: Int?
  }

  /// A data directory with a monthly subscription bought, an API key and a serving `storefront serve`.
  private struct Served {
    var directory: TemporaryDirectory
    var data: String
    var key: CreatedKey
    var address: String
    var serve: RunningProcess
    var originalTransactionID: String
  }

  private func served() throws -> Served {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try JSONDecoder().decode(CreatedKey.self, from: created.stdoutData)
    let scenario = directory.path("buy.scenario")
    try Data("account backend\nset dialogs off\nbuy \(Self.monthly)\nfinish last\n".utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let purchased = EventLine.parse(run.stdout, source: "buy").first { $0.event == "transactionUpdated" && $0.state == "purchased" }
    let original = try XCTUnwrap(purchased?.transactionID)
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)
    return Served(directory: directory, data: data, key: key, address: address, serve: serve, originalTransactionID: original)
  }

  private func configure(_ served: Served, realtimeURL: String, apple: AppleVerifier) throws -> [String: Step] {
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(served.address)", "bundle_id": served.key.bundleId, "key_file": served.key.privateKeyFile,
      "key_id": served.key.keyId, "issuer_id": served.key.issuerId, "product_id": Self.monthly,
      "original_transaction_id": served.originalTransactionID, "realtime_url": realtimeURL, "image_id": Self.image,
      "message_id": Self.message, "second_message_id": Self.second,
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_retention_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let steps = try XCTUnwrap(try JSONSerialization.jsonObject(with: client.stdoutData) as? [[String: Any]])
    lastSteps = steps
    return Dictionary(
      uniqueKeysWithValues: try JSONDecoder().decode([Step].self, from: client.stdoutData).map { ($0.name, $0) })
  }

  private var lastSteps: [[String: Any]] = []

  private func fields(_ name: String) -> [String: Any]? {
    lastSteps.first { $0["name"] as? String == name }?["fields"] as? [String: Any]
  }

  private func signedPayload(_ request: WebhookReceiver.Request) throws -> String {
    let body = try XCTUnwrap(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    XCTAssertEqual(Array(body.keys), ["signedPayload"])
    return try XCTUnwrap(body["signedPayload"] as? String)
  }

  func testAppleClientConfiguresServeAndThePerformanceTestCallsTheEndpointWithAppleSignedRequests() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let endpoint = try WebhookReceiver(behavior: .body(200, #"{"message":{"messageIdentifier":"\#(Self.second)"}}"#))
    defer { endpoint.stop() }
    let served = try served()
    let steps = try configure(served, realtimeURL: endpoint.url, apple: apple)

    let expected: [(String, Int?)] = [
      ("upload image", nil), ("upload image again", 4_090_000), ("upload a non-PNG image", 4_000_161), ("list images", nil),
      ("upload message", nil), ("upload message naming an unknown image", 4_040_014), ("upload second message", nil),
      ("list messages", nil), ("delete image in use", 4_030_019), ("configure default", nil), ("get default", nil),
      ("get default of another locale", 4_040_020), ("configure default with a bad locale", 4_000_164),
      ("configure default with an unknown message", 4_040_015), ("get realtime URL before one is set", 4_040_021),
      ("performance test without a URL", 4_040_021), ("configure realtime URL", nil), ("get realtime URL", nil),
      ("performance test of an unknown transaction", 4_040_005), ("initiate performance test", nil),
      ("result of an unknown test", 4_040_018), ("delete second message", nil), ("delete second message again", 4_040_015),
    ]
    for (name, error) in expected {
      let step = try XCTUnwrap(steps[name], name)
      XCTAssertEqual(step.ok, error == nil, "\(name): \(step)")
      XCTAssertEqual(step.raw_api_error, error, name)
    }
    let images = try XCTUnwrap(fields("list images")?["imageIdentifiers"] as? [[String: Any]])
    XCTAssertEqual(images.first?["imageIdentifier"] as? String, Self.image)
    XCTAssertEqual(images.first?["imageState"] as? String, "APPROVED", "the simulator approves uploads at once")
    XCTAssertEqual(images.first?["imageSize"] as? String, "FULL_SIZE")
    let messages = try XCTUnwrap(fields("list messages")?["messageIdentifiers"] as? [[String: Any]])
    XCTAssertEqual(Set(messages.compactMap { $0["messageIdentifier"] as? String }), [Self.message, Self.second])
    XCTAssertEqual(Set(messages.compactMap { $0["messageState"] as? String }), ["APPROVED"])
    XCTAssertEqual(fields("get default")?["messageIdentifier"] as? String, Self.message)
    XCTAssertEqual(fields("get realtime URL")?["realtimeURL"] as? String, endpoint.url)

    // Apple's client read the result as its PerformanceTestResultResponse.
    let result = try XCTUnwrap(fields("performance test result"))
    XCTAssertEqual(result["result"] as? String, "PASS", "\(result)")
    XCTAssertEqual(result["successRate"] as? Int, 100)
    XCTAssertEqual(result["numPending"] as? Int, 0)
    XCTAssertEqual(result["target"] as? String, endpoint.url)
    XCTAssertEqual((result["config"] as? [String: Any])?["totalRequests"] as? Int, 40)
    XCTAssertNotNil((result["responseTimes"] as? [String: Any])?["p99"] as? Int)
    XCTAssertEqual(endpoint.requests.count, 40)

    // Every request is Apple's signed realtime request, which Apple's verifier accepts.
    let root = served.directory.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", served.data], in: served.directory).status, 0)
    let first = try XCTUnwrap(endpoint.requests.first)
    XCTAssertEqual(first.method, "POST")
    XCTAssertEqual(first.headers["content-type"], "application/json")
    let verdicts = try apple.verify([
      .init(name: "realtime", kind: .realtime, jws: try signedPayload(first), rootDER: root, bundleID: served.key.bundleId),
      .init(name: "last", kind: .realtime, jws: try signedPayload(try XCTUnwrap(endpoint.requests.last)), rootDER: root, bundleID: served.key.bundleId),
    ])
    XCTAssertEqual(verdicts["realtime"]?.status, 0, verdicts["realtime"]?.cause ?? "")
    XCTAssertEqual(verdicts["last"]?.status, 0, verdicts["last"]?.cause ?? "")
    let decoded = try XCTUnwrap(verdicts["realtime"]?.decoded)
    XCTAssertEqual(decoded.originalTransactionId, served.originalTransactionID)
    XCTAssertEqual(decoded.productId, Self.monthly)
    XCTAssertEqual(decoded.userLocale, "en-US")
    XCTAssertEqual(decoded.environment, "Sandbox")
    XCTAssertEqual(decoded.appAppleId, 1_234_567_890)
    XCTAssertNotNil(decoded.requestIdentifier.flatMap(UUID.init(uuidString:)))

    XCTAssertEqual(kill(served.serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try served.serve.wait(timeout: 30).status, 0)
  }

  /// `cancel-flow` lines against an endpoint that answers each request differently: what it chose
  /// when valid; the default message (nothing applied) for junk, another group's product, an
  /// unknown message, a 500 and a hang past the time-out; accepting the alternate product switches.
  func testCancelFlowShowsTheEndpointsChoiceOrFallsBackToTheDefault() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let answers: [WebhookReceiver.Behavior] = [
      .body(200, #"{"message":{"messageIdentifier":"\#(Self.second)"}}"#),
      .body(200, "this is not JSON"),
      .body(200, #"{"alternateProduct":{"productId":"com.jake.sample.ExInAppPurchase.shopping"}}"#),
      .body(200, #"{"message":{"messageIdentifier":"11111111-2222-4333-8444-555555555555"}}"#),
      .body(200, #"{"message":{"messageIdentifier":"\#(Self.second)"},"alternateProduct":{"productId":"\#(Self.yearly)"}}"#),
      .status(500),
      .hang,
      .body(200, #"{"alternateProduct":{"productId":"\#(Self.yearly)","messageIdentifier":"\#(Self.message)"}}"#),
    ]
    let endpoint = try WebhookReceiver(behavior: .status(500))
    defer { endpoint.stop() }
    // The performance test's 40 requests come first; the cancel flows' after them.
    let offset = 40
    endpoint.setBeforeAnswer { index in
      let flow = index - offset
      endpoint.setBehavior(flow >= 0 && flow < answers.count ? answers[flow] : .body(200, "{}"))
    }
    let served = try served()
    _ = try configure(served, realtimeURL: endpoint.url, apple: apple)
    XCTAssertEqual(endpoint.requests.count, offset)
    let scenario = served.directory.path("cancel.scenario")
    try Data("""
      account backend
      set dialogs off
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      cancel-flow \(Self.monthly)
      expect retention-sheet message \(Self.message)
      expect owned \(Self.monthly)
      cancel-flow \(Self.monthly) choose=accept
      expect retention-sheet alternate \(Self.yearly)
      expect owned \(Self.yearly)

      """.utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", served.data], in: served.directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let sheets = EventLine.parse(run.stdout, source: "cancel").filter { $0.event == "retentionSheet" }
    XCTAssertEqual(sheets.count, 8, run.stdout)
    // The first answer named the second message, which the configuration run deleted: the default shows.
    let reasons = sheets.map { $0.object["fallbackReason"] as? String }
    XCTAssertTrue(reasons[0]?.contains("not an approved message") == true, "\(reasons)")
    XCTAssertTrue(reasons[1]?.contains("not a JSON object") == true, "\(reasons)")
    XCTAssertTrue(reasons[2]?.contains("not another subscription of the same group") == true, "\(reasons)")
    XCTAssertTrue(reasons[3]?.contains("not an approved message") == true, "\(reasons)")
    XCTAssertTrue(reasons[4]?.contains("not one") == true, "\(reasons)")
    XCTAssertTrue(reasons[5]?.contains("HTTP 500") == true, "\(reasons)")
    XCTAssertTrue(reasons[6]?.contains("TIMED_OUT") == true, "\(reasons)")
    XCTAssertTrue(sheets[0..<7].allSatisfy { $0.object["default"] as? Bool == true && $0.object["header"] as? String == "Before you go" })
    // The last: the alternate product with its message, as the endpoint chose.
    XCTAssertEqual(sheets[7].object["sheet"] as? String, "alternate")
    XCTAssertEqual(sheets[7].object["default"] as? Bool, false)
    XCTAssertEqual(sheets[7].object["alternateProductId"] as? String, Self.yearly)

    // Each cancel flow sent Apple's signed request, verified by Apple's library.
    let root = served.directory.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", served.data], in: served.directory).status, 0)
    let flowRequest = try XCTUnwrap(endpoint.requests.dropFirst(offset).first)
    let verdicts = try apple.verify([
      .init(name: "cancel", kind: .realtime, jws: try signedPayload(flowRequest), rootDER: root, bundleID: served.key.bundleId)
    ])
    XCTAssertEqual(verdicts["cancel"]?.status, 0, verdicts["cancel"]?.cause ?? "")
    XCTAssertEqual(verdicts["cancel"]?.decoded?.originalTransactionId, served.originalTransactionID)
    XCTAssertEqual(verdicts["cancel"]?.decoded?.productId, Self.monthly)

    XCTAssertEqual(kill(served.serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try served.serve.wait(timeout: 30).status, 0)
  }

  /// A promotional offer the developer's server signed with Apple's `PromotionalOfferV2SignatureCreator`
  /// (the data directory's in-app purchase key): accepting a forged one fails the purchase with
  /// `invalidSignature` and changes nothing; accepting the real one applies it at the next renewal.
  func testAcceptingAnOfferSignedWithApplesLibraryIsCheckedAsAnySignedOffer() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let scenario = directory.path("buy.scenario")
    try Data("account backend\nset dialogs off\nbuy \(Self.yearly)\nfinish last\n".utf8).write(to: URL(fileURLWithPath: scenario))
    // The ledger's clock starts at the wall clock's now, where Apple's signer dates its `iat`.
    let bought = try StorefrontBinary.run(["run", scenario, "--json", "--clock-start", "now", "--data-dir", data], in: directory)
    XCTAssertEqual(bought.status, 0, bought.summary)
    let keyPEM = try String(contentsOfFile: directory.path("data/ca/promotional-offer-key.pem"), encoding: .utf8)
    let offer = "\(Self.yearly).comeback"
    let signed = try apple.sign([.promotionalOffer(product: Self.yearly, offer: offer, transactionID: nil)], keyPEM: keyPEM, keyID: "STOREFRONT", bundleID: "com.example.storefront")[0]
    // One signature character changed mid-segment: the same offer, a signature that does not hold.
    var characters = Array(signed)
    let index = characters.count - 20
    characters[index] = characters[index] == "A" ? "B" : "A"
    let forged = String(characters)
    let answers = [forged, signed].map { WebhookReceiver.Behavior.body(200, #"{"promotionalOffer":{"promotionalOfferSignatureV2":"\#($0)"}}"#) }
    let endpoint = try WebhookReceiver(behavior: .status(500))
    defer { endpoint.stop() }
    endpoint.setBeforeAnswer { index in endpoint.setBehavior(index < answers.count ? answers[index] : .status(500)) }
    try Data(#"{"realtimeURLs":{"Sandbox":"\#(endpoint.url)"}}"#.utf8).write(to: URL(fileURLWithPath: directory.path("data/retention-messaging.json")))
    let cancel = directory.path("cancel.scenario")
    try Data("""
      account backend
      set dialogs off
      cancel-flow \(Self.yearly) choose=accept
      expect retention-sheet offer \(offer)
      expect error last invalidSignature
      cancel-flow \(Self.yearly) choose=accept
      expect retention-sheet offer \(offer)

      """.utf8).write(to: URL(fileURLWithPath: cancel))
    let run = try StorefrontBinary.run(["run", cancel, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let events = EventLine.parse(run.stdout, source: "cancel")
    XCTAssertEqual(events.filter { $0.event == "retentionSheet" }.count, 2)
    let statusChanges = events.filter { $0.event == "subscriptionStatusChanged" }.compactMap { $0.object["reason"] as? String }
    XCTAssertEqual(statusChanges, ["offer at next renewal"], "only the real offer applies: \(run.stdout)")
    XCTAssertEqual(endpoint.requests.count, 2)
  }
}
