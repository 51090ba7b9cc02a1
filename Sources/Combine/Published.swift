import Foundation

/// A property of an ``ObservableObject`` class that announces its changes: before each change the
/// object's `objectWillChange` emits and `$property` publishes the new value.
@propertyWrapper
public struct Published<Value> {
  private let box: Box

  public init(wrappedValue: Value) { box = Box(wrappedValue) }

  /// `@Published` works on class properties only, as Combine's does.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Published is only available on properties of classes") }
    // swiftlint:disable:next unused_setter_value
    set { fatalError("@Published is only available on properties of classes") }
  }

  /// The publisher of the property's values: the current one at subscription, then each new one.
  public var projectedValue: Publisher { Publisher(box: box) }

  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].box.value }
    set {
      ObservableObjectPublisher.publisher(for: object, making: false)?.send()
      object[keyPath: storageKeyPath].box.set(newValue)
    }
  }

  /// The values of a `@Published` property.
  public struct Publisher: Combine.Publisher {
    public typealias Output = Value
    public typealias Failure = Never
    fileprivate let box: Box

    public func _subscribe(_ receive: @escaping (Value) -> Void) -> AnyCancellable {
      let token = box.subject.subscribe(receive)
      receive(box.value)
      return token
    }
  }

  fileprivate final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    let subject = Subject<Value>()
    init(_ value: Value) { stored = value }
    var value: Value {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    func set(_ value: Value) {
      subject.send(value)
      lock.lock()
      stored = value
      lock.unlock()
    }
  }
}
