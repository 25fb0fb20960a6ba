import AsyncHTTPClient
import Foundation
import NIOCore
import TestSupport

/// Debian's headless Chromium driven through chromedriver's WebDriver: plain HTTP and JSON,
/// sent with AsyncHTTPClient (URLSession on Linux cannot read chromedriver's `Name:value`
/// headers). One `Browser` is one chromedriver, one Chromium and one session.
final class Browser: Sendable {
  static let chromium = "/usr/bin/chromium"
  static let chromedriver = "/usr/bin/chromedriver"
  static var installed: Bool {
    FileManager.default.isExecutableFile(atPath: chromium)
      && FileManager.default.isExecutableFile(atPath: chromedriver)
  }

  let driver: ChildProcess
  let profile: TemporaryDirectory
  /// `http://127.0.0.1:PORT/session/ID`
  let session: URL

  private init(driver: ChildProcess, profile: TemporaryDirectory, session: URL) {
    self.driver = driver
    self.profile = profile
    self.session = session
  }

  /// Starts chromedriver on a free port, waits until it is ready, and opens a session.
  static func start(width: Int = 1280, height: Int = 900) async throws -> Browser {
    let port = try freePort()
    let driver = try ChildProcess(
      URL(fileURLWithPath: chromedriver), ["--port=\(port)", "--allowed-ips=127.0.0.1"],
      standardOutput: .discard, standardError: .collect)
    let base = URL(string: "http://127.0.0.1:\(port)")!
    let profile = try TemporaryDirectory()
    do {
      let ready = await waitUntil(timeout: .seconds(60), every: .milliseconds(50)) {
        (try? await call(base, "GET", "status")) != nil
      }
      guard ready else { throw WebDriverError("chromedriver did not start: \(driver.stderr)") }
      let options: [String: Any] = [
        "binary": chromium,
        "args": [
          "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--autoplay-policy=no-user-gesture-required", "--mute-audio",
          "--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)",
        ],
      ]
      let capabilities: [String: Any] = [
        "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]
      ]
      let answer = try await call(base, "POST", "session", capabilities)
      guard let id = (answer as? [String: Any])?["sessionId"] as? String else {
        throw WebDriverError("chromedriver opened no session: \(String(describing: answer))")
      }
      return Browser(
        driver: driver, profile: profile, session: base.appendingPathComponent("session/\(id)"))
    } catch {
      driver.signal(SIGKILL)
      _ = await driver.waitUntilExit()
      profile.remove()
      throw error
    }
  }

  /// Ends the session (Chromium quits), then chromedriver (which does not stop on SIGTERM:
  /// it is asked to shut down, and killed if it has not within 10 s).
  func quit() async {
    _ = try? await Self.call(session, "DELETE", "")
    let driverURL = session.deletingLastPathComponent().deletingLastPathComponent()
    _ = try? await Self.call(driverURL, "GET", "shutdown")
    if !(await driver.waitUntilExit(timeout: .seconds(10))) {
      driver.signal(SIGKILL)
      _ = await driver.waitUntilExit()
    }
    profile.remove()
  }

  func go(_ url: String) async throws {
    _ = try await Self.call(session, "POST", "url", ["url": url])
  }

  func currentURL() async throws -> String {
    try await Self.call(session, "GET", "url") as? String ?? ""
  }

  /// Whether the page's address becomes `url` (after a click or a submitted form).
  func arrives(at url: String) async -> Bool {
    await waitUntil(timeout: .seconds(60), every: .milliseconds(50)) {
      (try? await currentURL()) == url
    }
  }

  /// The first element matching a CSS selector.
  func element(_ css: String) async throws -> String {
    let found = try await Self.call(
      session, "POST", "element", ["using": "css selector", "value": css])
    guard let element = (found as? [String: Any])?.values.first as? String else {
      throw WebDriverError("no element matches \(css)")
    }
    return element
  }

  func click(_ css: String) async throws {
    let element = try await element(css)
    _ = try await Self.call(session, "POST", "element/\(element)/click", [String: Any]())
  }

  func type(_ text: String, into css: String) async throws {
    let element = try await element(css)
    _ = try await Self.call(session, "POST", "element/\(element)/value", ["text": text])
  }

  /// Presses and releases one key (`" "` is the space bar) on the focused element.
  func press(_ key: String) async throws {
    let strokes = [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]
    _ = try await Self.call(
      session, "POST", "actions",
      ["actions": [["type": "key", "id": "keyboard", "actions": strokes]]])
  }

  /// Runs `script` (a function body) in the page; it returns JSON text, decoded as `T`.
  func run<T: Decodable>(_ type: T.Type, _ script: String) async throws -> T {
    let text = try await Self.call(session, "POST", "execute/sync", ["script": script, "args": []])
    return try JSONDecoder().decode(T.self, from: Data((text as? String ?? "null").utf8))
  }

  /// Runs `script`, which calls `done(JSON text)` when what it waits for has happened.
  func wait<T: Decodable>(_ type: T.Type, _ script: String) async throws -> T {
    let body = "const done = arguments[arguments.length - 1];\n" + script
    let text = try await Self.call(session, "POST", "execute/async", ["script": body, "args": []])
    return try JSONDecoder().decode(T.self, from: Data((text as? String ?? "null").utf8))
  }

  /// A PNG of the page as wide as the window.
  func screenshot() async throws -> Data {
    let text = try await Self.call(session, "GET", "screenshot") as? String ?? ""
    return Data(base64Encoded: text) ?? Data()
  }

  /// One WebDriver command; answers its `value`, or throws its error message.
  static func call(_ base: URL, _ method: String, _ path: String, _ body: Any? = nil)
    async throws -> Any?
  {
    var request = HTTPClientRequest(
      url: path.isEmpty ? base.absoluteString : base.appendingPathComponent(path).absoluteString)
    request.method = .init(rawValue: method)
    if let body {
      request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
      request.headers.add(name: "Content-Type", value: "application/json")
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let data = Data(try await response.body.collect(upTo: 64 << 20).readableBytesView)
    let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let value = (object as? [String: Any])?["value"]
    guard response.status.code == 200 else {
      let message = (value as? [String: Any])?["message"] as? String
      throw WebDriverError(
        "\(method) \(path): \(message ?? String(decoding: data, as: UTF8.self))")
    }
    return value is NSNull ? nil : value
  }

  static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw WebDriverError("no free port for chromedriver") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

struct WebDriverError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
