/// `notificationUUID`s: a v4-format UUID per outbox entry, derived from the ledger's 128-bit
/// namespace and the entry's sequence, so a retry, a restart or another serving process sends the
/// same one, two data directories send different ones, and a seeded namespace repeats in tests.
public enum NotificationUUID {
  /// The UUID of outbox entry `sequence` in a ledger whose namespace is `namespace`.
  public static func make(namespace: UInt128, sequence: Int64) -> String {
    // SplitMix64's finalizer is a bijection, so distinct sequences give distinct high halves.
    let high = mix(UInt64(truncatingIfNeeded: namespace >> 64) ^ UInt64(bitPattern: sequence))
    let low = mix(UInt64(truncatingIfNeeded: namespace) &+ UInt64(bitPattern: sequence) &* 0x9E37_79B9_7F4A_7C15)
    // Version 4 in the 13th hex digit, the RFC 4122 variant in the 17th.
    let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
    let varied = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    let hex = hexDigits(versioned) + hexDigits(varied)
    let characters = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
  }

  /// A namespace from a seed (`--seed`), so seeded runs repeat.
  public static func namespace(seed: UInt64) -> UInt128 {
    UInt128(mix(seed &+ 0x6E6F_7469_6679)) << 64 | UInt128(mix(seed ^ 0x5555_5555_5555_5555))
  }

  /// A random namespace for a new ledger.
  public static func randomNamespace() -> UInt128 {
    var generator = SystemRandomNumberGenerator()
    return UInt128(generator.next() as UInt64) << 64 | UInt128(generator.next() as UInt64)
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private static func hexDigits(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
