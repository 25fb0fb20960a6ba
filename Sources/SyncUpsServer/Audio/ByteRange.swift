import Foundation

/// A `Range: bytes=...` header, for a file of `size` bytes.
enum ByteRange: Equatable {
  /// No range, or one this server does not read (several ranges): the whole file.
  case whole
  case part(ClosedRange<Int>)
  /// A range that starts past the end: 416.
  case unsatisfiable

  init(header: String?, size: Int) {
    guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
      self = .whole
      return
    }
    let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      self = .whole
      return
    }
    if parts[0].isEmpty {
      // The last N bytes.
      guard let count = Int(parts[1]), count >= 0 else {
        self = .whole
        return
      }
      guard count > 0, size > 0 else {
        self = .unsatisfiable
        return
      }
      self = .part(max(0, size - count)...(size - 1))
      return
    }
    guard let start = Int(parts[0]), start >= 0 else {
      self = .whole
      return
    }
    let end: Int
    if parts[1].isEmpty {
      end = size - 1
    } else {
      guard let last = Int(parts[1]), last >= start else {
        self = .whole
        return
      }
      end = min(last, size - 1)
    }
    self = start < size ? .part(start...end) : .unsatisfiable
  }
}
