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
    // Written straight into the 36 bytes of the text form (8-4-4-4-12): a per-notification cost.
    var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
    write(versioned, into: &bytes, at: [0..<8, 9..<13, 14..<18])
    write(varied, into: &bytes, at: [19..<23, 24..<36])
    return String(decoding: bytes, as: UTF8.self)
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

  /// The 16 hex digits of `value`, most significant first, spread over `ranges` (16 positions in all).
  private static func write(_ value: UInt64, into bytes: inout [UInt8], at ranges: [Range<Int>]) {
    let digits = Array("0123456789abcdef".utf8)
    var shift = 60
    for range in ranges {
      for index in range {
        bytes[index] = digits[Int((value >> UInt64(shift)) & 0xF)]
        shift -= 4
      }
    }
  }
}
