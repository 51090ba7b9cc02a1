import Foundation
import StoreEngine

/// `bus_posts_per_s` and `bus_vs_notificationcenter`: one `StoreEvent.transactionsUpdated` posted
/// to 10 subscribers that each count it, on `EventBus` (immediate executor) vs a private Foundation
/// `NotificationCenter` with 10 block observers (queue nil, so delivered synchronously) that take
/// the event out of `userInfo`, the way an app passes a payload through it.
enum BusBenchmark {
  static let subscribers = 10

  /// Each subscriber's work: count, and look at the event so the delivery cannot be skipped.
  final class Tally: @unchecked Sendable {
    var deliveries = 0
    var transactions = 0
    func take(_ event: StoreEvent) {
      deliveries += 1
      if case .transactionsUpdated(let list) = event { transactions += list.count }
    }
  }

  static func run(posts: Int, repeats: Int, into report: Report) throws {
    let event = StoreEvent.transactionsUpdated([sampleTransaction])
    let bus = EventBus()
    let busTally = Tally()
    let tokens = (0..<subscribers).map { _ in bus.subscribe(StoreEvent.self) { busTally.take($0) } }

    let center = NotificationCenter()
    let name = Notification.Name("StorefrontBenchTransactionsUpdated")
    let centerTally = Tally()
    let observers = (0..<subscribers).map { _ in
      center.addObserver(forName: name, object: nil, queue: nil) { note in
        if let event = note.userInfo?["event"] as? StoreEvent { centerTally.take(event) }
      }
    }
    defer { observers.forEach(center.removeObserver) }

    let prototype = TypedBusPrototype()
    let prototypeTally = Tally()
    for _ in 0..<subscribers { _ = prototype.subscribe(StoreEvent.self) { prototypeTally.take($0) } }

    var prototypeRates: [Double] = []
    var busRates: [Double] = []
    var centerRates: [Double] = []
    for repetition in 0...repeats {
      busTally.deliveries = 0
      centerTally.deliveries = 0
      let busSeconds = Stopwatch.seconds {
        for _ in 0..<posts { bus.post(event) }
      }
      let centerSeconds = Stopwatch.seconds {
        for _ in 0..<posts { center.post(name: name, object: nil, userInfo: ["event": event]) }
      }
      prototypeTally.deliveries = 0
      let prototypeSeconds = Stopwatch.seconds {
        for _ in 0..<posts { prototype.post(event) }
      }
      guard prototypeTally.deliveries == posts * subscribers, busTally.deliveries == posts * subscribers, centerTally.deliveries == posts * subscribers else {
        throw BenchError.failed("deliveries: bus \(busTally.deliveries), NotificationCenter \(centerTally.deliveries), expected \(posts * subscribers) each")
      }
      if repetition > 0 {
        busRates.append(Double(posts) / busSeconds)
        centerRates.append(Double(posts) / centerSeconds)
        prototypeRates.append(Double(posts) / prototypeSeconds)
      }
    }
    withExtendedLifetime(tokens) {}
    let busSample = Sample(values: busRates, unit: "posts/s")
    let centerSample = Sample(values: centerRates, unit: "posts/s")
    report.record("bus_eventbus_posts", busSample)
    report.record("bus_notificationcenter_posts", centerSample)
    let prototypeSample = Sample(values: prototypeRates, unit: "posts/s")
    report.record("bus_typed_prototype_posts", prototypeSample)
    report.extra("bus_typed_prototype_vs_notificationcenter", prototypeSample.median / centerSample.median)
    report.set("bus_posts_per_s", busSample.median)
    report.set("bus_vs_notificationcenter", busSample.median / centerSample.median)
    report.note("bus_posts_per_s", "Each post reaches \(subscribers) subscribers (deliveries/s = 10 × posts/s).")
  }

  static var sampleTransaction: PaymentTransaction {
    PaymentTransaction(
      id: PaymentTransaction.ID(1_000_000_001), account: "bench", productID: Product.ID("com.bench.storefront.item0"),
      productKind: .consumable, quantity: 1, applicationUsername: nil, purchaseDate: Date(timeIntervalSince1970: 1_767_225_600),
      currency: "USD", storefront: "USA")
  }
}
