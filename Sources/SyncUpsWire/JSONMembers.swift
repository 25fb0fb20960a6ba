extension WireJSON {
  /// Where the value of `key` is in the JSON object `json` (as `bytes(of:)` writes it), found by
  /// reading the object's members one by one (`JSONScan`: strings and nested values skipped
  /// whole), never by searching the bytes: it holds whatever order the keys come in. Nil when
  /// `json` is no object or has no such member.
  public static func range(ofMember key: String, in json: [UInt8]) -> Range<Int>? {
    json.withUnsafeBytes { bytes in
      var scan = JSONScan(bytes: bytes, index: 0, end: bytes.count)
      guard scan.take(UInt8(ascii: "{")) else { return nil }
      repeat {
        guard let name = scan.string(), scan.take(UInt8(ascii: ":")), let value = scan.value()
        else { return nil }
        if bytes[name].elementsEqual(key.utf8) { return value }
      } while scan.take(UInt8(ascii: ","))
      return nil
    }
  }
}
