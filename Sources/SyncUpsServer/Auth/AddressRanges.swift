import Foundation
import Glibc

/// Addresses and networks (`10.0.0.0/8`, `::1`, `192.168.1.7`) a client's address is checked
/// against: who may read `/metrics` (`serve --metrics-from`, `$SYNCUPS_METRICS_FROM`).
public struct AddressRanges: Sendable, Equatable {
  struct Range: Sendable, Equatable {
    /// 4 bytes (IPv4) or 16 (IPv6).
    var bytes: [UInt8]
    var prefix: Int
  }

  let ranges: [Range]

  /// This machine only: 127.0.0.0/8 and ::1.
  public static let loopback = try! AddressRanges(["127.0.0.0/8", "::1"])

  /// Each item an IP address or a network in CIDR form; a mistake is one line.
  public init(_ items: [String]) throws(ServerError) {
    var ranges: [Range] = []
    for item in items {
      guard let range = Self.range(item) else {
        throw ServerError.usage(
          "--metrics-from (and $SYNCUPS_METRICS_FROM) take an IP address or a network (such as 127.0.0.1 or 10.0.0.0/8), "
            + "not '\(item.prefix(100))'")
      }
      ranges.append(range)
    }
    self.ranges = ranges
  }

  static func range(_ text: String) -> Range? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(
      separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let bytes = Self.bytes(parts[0]) else { return nil }
    let bits = bytes.count * 8
    guard parts.count == 2 else { return Range(bytes: bytes, prefix: bits) }
    guard parts[1].count <= 3, let prefix = Int(parts[1]), (0...bits).contains(prefix) else {
      return nil
    }
    return Range(bytes: bytes, prefix: prefix)
  }

  /// An address's bytes (an IPv4 address mapped into IPv6 as its 4), nil when it is not one.
  static func bytes(_ text: some StringProtocol) -> [UInt8]? {
    guard let canonical = TrustedProxies.canonical(text) else { return nil }
    var v4 = in_addr()
    if inet_pton(AF_INET, canonical, &v4) == 1 {
      return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, canonical, &v6) == 1 else { return nil }
    return withUnsafeBytes(of: &v6) { Array($0) }
  }

  /// Whether `address` is in one of the ranges (never when it is not an address).
  public func contains(_ address: String?) -> Bool {
    guard let address, let bytes = Self.bytes(address) else { return false }
    return ranges.contains { range in
      guard range.bytes.count == bytes.count else { return false }
      var left = range.prefix
      for (mine, theirs) in zip(range.bytes, bytes) where left > 0 {
        let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
        guard mine & mask == theirs & mask else { return false }
        left -= 8
      }
      return true
    }
  }
}

extension AddressRanges {
  /// `$SYNCUPS_METRICS_FROM`: items separated by commas (empty ones skipped).
  public static func list(_ text: String) throws(ServerError) -> AddressRanges {
    try AddressRanges(
      text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty
      })
  }
}
