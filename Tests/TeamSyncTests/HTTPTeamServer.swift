import Foundation
import SyncUpsWire

#if canImport(Glibc)
  import Glibc
#endif

/// A team server that speaks just enough HTTP/1.1 for the laptop's URLSession, answering each
/// request as the test says (redirects, endless pages, huge bodies, escape sequences): one
/// request per connection (`Connection: close`), each on a thread of its own, never the
/// cooperative pool. It keeps what it was asked, so a test can say what reached it.
final class HTTPTeamServer: @unchecked Sendable {
  struct Request: Sendable {
    var method: String
    /// The path with its query, as sent.
    var target: String
    /// Header names in lowercase.
    var headers: [String: String]
    var body: Data
    var path: String { String(target.prefix { $0 != "?" }) }
  }

  enum Body: Sendable {
    case data(Data)
    /// `count` zero bytes, made as they are sent (a body larger than the test wants to hold).
    case zeros(Int64)
  }

  struct Answer: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var body: Body = .data(Data())
    /// False: no Content-Length; the body ends when the connection closes.
    var sendsLength = true

    static func json(_ value: some Encodable, status: Int = 200) -> Answer {
      Answer(
        status: status, headers: ["Content-Type": "application/json"],
        body: .data((try? WireJSON.encoder().encode(value)) ?? Data()))
    }

    static func error(_ status: Int, _ message: String) -> Answer {
      json(ErrorBody(message), status: status)
    }
  }

  let port: Int
  let host: String
  var url: String { "http://\(host):\(port)" }
  private let fd: Int32
  private let respond: @Sendable (Request) -> Answer
  private let lock = NSLock()
  private var received: [Request] = []
  private var sent: [Int64] = []

  /// Listens on `host`, an IPv4 address of this computer, on a free port.
  init(host: String = "127.0.0.1", respond: @escaping @Sendable (Request) -> Answer) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      Glibc.close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    self.host = host
    self.respond = respond
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  /// Every request so far, in order.
  var requests: [Request] { lock.withLock { received } }
  /// The body bytes each answer got out before the laptop stopped reading, in order.
  var bytesSent: [Int64] { lock.withLock { sent } }

  func close() {
    shutdown(fd, Int32(SHUT_RDWR))
    Glibc.close(fd)
  }

  private func acceptLoop() {
    while true {
      let client = accept(fd, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      Thread.detachNewThread { [self] in serve(client) }
    }
  }

  private func serve(_ client: Int32) {
    defer { Glibc.close(client) }
    guard let request = read(client) else { return }
    lock.withLock { received.append(request) }
    let answer = respond(request)
    var head = "HTTP/1.1 \(answer.status) Status\r\nConnection: close\r\n"
    for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
    let count: Int64 =
      switch answer.body {
      case .data(let data): Int64(data.count)
      case .zeros(let count): count
      }
    if answer.sendsLength { head += "Content-Length: \(count)\r\n" }
    guard send(client, Data((head + "\r\n").utf8)) else { return }
    var written: Int64 = 0
    switch answer.body {
    case .data(let data):
      if send(client, data) { written = count }
    case .zeros:
      let chunk = Data(count: 256 * 1024)
      while written < count {
        let part = chunk.prefix(Int(min(Int64(chunk.count), count - written)))
        guard send(client, part) else { break }
        written += Int64(part.count)
      }
    }
    lock.withLock { sent.append(written) }
    // The laptop reads to the end of the answer (no Content-Length: to the close).
    shutdown(client, Int32(SHUT_WR))
  }

  /// Writes all of `data`; false when the laptop went away (no SIGPIPE: MSG_NOSIGNAL).
  private func send(_ client: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = Glibc.send(
          client, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
  }

  /// One request: its head, then its body (Content-Length, or chunked); a `100 Continue` first
  /// when curl waits for one before sending a large body.
  private func read(_ client: Int32) -> Request? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    func more() -> Bool {
      let count = recv(client, &chunk, chunk.count, 0)
      guard count > 0 else { return false }
      buffer.append(contentsOf: chunk[0..<count])
      return true
    }
    let separator = Data("\r\n\r\n".utf8)
    var end: Range<Data.Index>?
    while end == nil {
      guard more() else { return nil }
      end = buffer.range(of: separator)
    }
    let lines = String(decoding: buffer[..<end!.lowerBound], as: UTF8.self)
      .components(separatedBy: "\r\n")
    let first = lines[0].split(separator: " ")
    guard first.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    buffer = Data(buffer[end!.upperBound...])
    if headers["expect"]?.lowercased() == "100-continue" {
      guard send(client, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
    }
    var body = Data()
    if let length = headers["content-length"].flatMap(Int.init) {
      while buffer.count < length { guard more() else { return nil } }
      body = buffer.prefix(length)
    } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
      let newline = Data("\r\n".utf8)
      while true {
        while buffer.range(of: newline) == nil { guard more() else { return nil } }
        let line = buffer.range(of: newline)!
        let size = Int(String(decoding: buffer[..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
        while buffer.count < line.upperBound + size + 2 { guard more() else { return nil } }
        body.append(buffer[line.upperBound..<line.upperBound + size])
        buffer = Data(buffer[(line.upperBound + size + 2)...])
        if size == 0 { break }
      }
    }
    return Request(
      method: String(first[0]), target: String(first[1]), headers: headers, body: body)
  }
}

/// An IPv4 address of this computer that is not loopback (its network's), if it has one.
func networkAddress() -> String? {
  var list: UnsafeMutablePointer<ifaddrs>?
  guard getifaddrs(&list) == 0 else { return nil }
  defer { freeifaddrs(list) }
  var next = list
  while let entry = next {
    defer { next = entry.pointee.ifa_next }
    guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET)
    else { continue }
    var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    guard inet_ntop(AF_INET, &ipv4.sin_addr, &text, socklen_t(text.count)) != nil else { continue }
    let string = String(cString: text)
    if !string.hasPrefix("127.") { return string }
  }
  return nil
}
