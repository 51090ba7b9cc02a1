import Foundation

/// An object with a publisher that emits before the object changes: what Apple's StoreKit 2 sample
/// store (`class Store: ObservableObject` with `@Published` products) is made of. Linux has no
/// Combine; this module declares the part of it that such purchase code uses (DECISIONS §40).
public protocol ObservableObject: AnyObject {
  /// The publisher that emits before the object changes.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// One publisher per object, made on first use; each `@Published` property's change sends through it.
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher.publisher(for: self, making: true) ?? .init() }
}

/// The publisher of an ``ObservableObject`` that emits (no value) before the object changes.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  public typealias Output = Void
  public typealias Failure = Never

  private let subject = Subject<Void>()

  public init() {}

  /// Tells the subscribers the object is about to change.
  public func send() { subject.send(()) }

  public func _subscribe(_ receive: @escaping (Output) -> Void) -> AnyCancellable { subject.subscribe(receive) }

  private struct Entry {
    weak var object: AnyObject?
    let publisher: ObservableObjectPublisher
  }

  private nonisolated(unsafe) static var table: [ObjectIdentifier: Entry] = [:]
  private static let lock = NSLock()

  /// The default publisher of `object`, made if `making` and there is none yet.
  static func publisher(for object: AnyObject, making: Bool) -> ObservableObjectPublisher? {
    lock.lock()
    defer { lock.unlock() }
    let key = ObjectIdentifier(object)
    if let entry = table[key], entry.object === object { return entry.publisher }
    guard making else { return nil }
    table = table.filter { $0.value.object != nil }
    let made = ObservableObjectPublisher()
    table[key] = Entry(object: object, publisher: made)
    return made
  }
}
