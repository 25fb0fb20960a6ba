import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SyncUpsServer

/// Guessing passwords on the sign-in page: guesses take turns and add up their waits, headers
/// a client writes itself change nothing, every guess costs one bcrypt check, and however many
/// names are tried the server remembers a bounded number of them. Also forms posted from
/// another site, and the reverse proxies the server believes.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct SignInAttackTests {
  @Test func parallelWrongGuessesForOneNameTakeTurnsAndAddUpTheirWaits() async throws {
    let server = try await TestServer.make()
    // Ana's password "correct horse" at bcrypt's lowest cost (4, not 10), so that the waits,
    // not bcrypt, take the time (the pool's bcrypt threads would otherwise space the answers).
    let cheap = "$2b$04$SBPdo8f1nmfPCZe7BvrE2eJpM.wv4V.QNAQ7RfF5EoC1p/h7VaqIa"
    try await server.store {
      try await $0.client.query("UPDATE person SET password_hash = \(cheap) WHERE name = 'Ana'")
    }
    let throttle = SignInThrottle(first: .milliseconds(100), longest: .milliseconds(400))
    let guesses = 6
    try await server.test(throttle: throttle) { http, _ in
      let start = ContinuousClock.now
      let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Duration).self) {
        group in
        for guess in 0..<guesses {
          group.addTask {
            let status = try await http.signIn("ana", "guess \(guess)").status
            return (status, ContinuousClock.now - start)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(answers.map(\.0) == Array(repeating: .unauthorized, count: guesses))
      // 100 ms after the first failure, 200 ms after the second, then 400 ms after each.
      let waits = (0..<guesses).map {
        min(.milliseconds(100) * (1 << $0), Duration.milliseconds(400))
      }
      let times = answers.map(\.1).sorted()
      #expect(times.last! >= waits.reduce(.zero, +), "took \(times.last!)")
      // Each answer comes after the one before it has waited: never two at once (two bcrypt
      // threads must not answer two guesses together).
      for (earlier, later) in zip(times, times.dropFirst()) {
        #expect(later - earlier >= .milliseconds(100), "answered at \(times)")
      }
      #expect(try await http.signIn("ana", "correct horse").status == .seeOther)
    }
  }

  @Test func rotatingXForwardedForFromAnUntrustedPeerDoesNotEscapeTheThrottle() async throws {
    let server = try await TestServer.make()
    let throttle = SignInThrottle(first: .milliseconds(10), longest: .seconds(10))
    // A real socket: the peer is the loopback address, which once made the header believed.
    try await server.test(.live, throttle: throttle) { http, _ in
      for guess in 1...4 {
        let response = try await http.signIn(
          "name \(guess)", "guess",
          headers: [.origin: TestServer.origin, .forwardedFor: "203.0.113.\(guess)"])
        #expect(response.status == .unauthorized)
      }
      // All four failures count against the peer, none against the addresses it made up.
      let next = SignInThrottle.keys(name: "someone else", address: "127.0.0.1")
      #expect(await throttle.delay(for: next) == .milliseconds(80))
      let madeUp = SignInThrottle.keys(name: "someone else", address: "203.0.113.4")
      #expect(await throttle.delay(for: madeUp) == .zero)
    }
  }

  @Test func onlyATrustedProxySaysWhoTheClientIsAndWhetherItUsedHTTPS() async throws {
    let proxies = try TrustedProxies(["127.0.0.1", "0:0:0:0:0:0:0:1", " 10.0.0.2 "])
    #expect(proxies.addresses == ["127.0.0.1", "::1", "10.0.0.2"])
    #expect(
      proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.7, 203.0.113.9") == "203.0.113.9")
    // Each proxy appends who it heard from: the client is the last address not a proxy's.
    #expect(
      proxies.client(peer: "::1", forwardedFor: "198.51.100.7,203.0.113.9, 10.0.0.2")
        == "203.0.113.9")
    #expect(proxies.client(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
    #expect(proxies.client(peer: "::ffff:127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
    // A header the proxy passed on that names no address is an untrusted client, never the proxy.
    #expect(
      proxies.client(peer: "127.0.0.1", forwardedFor: "not an address")
        == TrustedProxies.untrusted)
    #expect(proxies.client(peer: "192.0.2.1", forwardedFor: "203.0.113.9") == "192.0.2.1")
    #expect(try TrustedProxies().client(peer: "::1", forwardedFor: "203.0.113.9") == "::1")
    #expect(proxies.forwarded("http, HTTPS", peer: "10.0.0.2") == "https")
    #expect(proxies.forwarded("https", peer: "192.0.2.1") == nil)
    #expect(throws: ServerError.self) { try TrustedProxies(["proxy.example"]) }
    do {
      _ = try TrustedProxies(["10.0.0.300"])
    } catch {
      #expect("\(error)".contains("--trusted-proxy takes the IP address of a reverse proxy"))
    }

    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    let https: HTTPFields = [
      .origin: "https://team.example", .forwardedProto: "https", .forwardedHost: "team.example",
    ]
    // From a peer that is not a trusted proxy, the headers are the client's own claims.
    try await server.test(.live) { http, _ in
      let response = try await http.signIn("ana", "correct horse", headers: https)
      #expect(response.status == .forbidden)
      let plain = try await http.signIn(
        "ana", "correct horse", headers: [.origin: TestServer.origin, .forwardedProto: "https"])
      #expect(plain.status == .seeOther)
      #expect(plain.headers[.setCookie]?.contains("Secure") == false)
    }
    try await server.test(.live, proxies: proxies) { http, _ in
      let response = try await http.signIn("ana", "correct horse", headers: https)
      #expect(response.status == .seeOther)
      #expect(response.headers[.setCookie]?.hasSuffix("; Secure") == true)
      // The browser's scheme counts once a trusted proxy names it.
      var http1 = https
      http1[.origin] = "http://team.example"
      #expect(try await http.signIn("ana", "correct horse", headers: http1).status == .forbidden)
    }
  }

  @Test func aBlankPasswordOrNameCostsOneBcryptCheckLikeAnyOther() async throws {
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    try await server.test(throttle: SignInThrottle(first: .zero)) { http, store in
      for (name, password) in [
        ("ana", ""), ("", "correct horse"), ("", ""), ("nobody", ""), ("nobody", "x"),
        ("ben", "x"), ("ana", "wrong"),
      ] {
        let before = store.passwordChecks.value
        let response = try await http.signIn(name, password)
        #expect(response.status == .unauthorized, "'\(name)' '\(password)'")
        #expect(store.passwordChecks.value == before + 1, "'\(name)' '\(password)'")
      }
      // A real password, the decoy that stands in for a missing one: the same bcrypt cost.
      let hashes = try await store.client.query(
        "SELECT password_hash FROM person WHERE password_hash IS NOT NULL"
      ).all(String.self)
      #expect(hashes.map { $0.split(separator: "$")[1] } == ["\(TeamStore.passwordCost)"])
      #expect(TeamStore.decoyHash.split(separator: "$")[1] == "\(TeamStore.passwordCost)")
    }
  }

  @Test func longNamesAreRefusedUnreadAndManyNamesKeepTheTableAtItsBound() async throws {
    let server = try await TestServer.make()
    // Failures wait a nanosecond: nothing to notice, but a failure remembered makes it more.
    let throttle = SignInThrottle(first: .nanoseconds(1), capacity: 100)
    try await server.test(throttle: throttle) { http, store in
      let long = String(repeating: "x", count: 16 * 1024 - 200)
      // One character of 2,000 accents: short to count, long to keep.
      let accented = "e" + String(repeating: "\u{301}", count: 2000)
      for name in (0..<20).map({ "\($0)\(long)" }) + [accented] {
        let response = try await http.signIn(name, "guess")
        #expect(response.status == .badRequest)
        #expect(response.text.contains("at most 100 characters"))
        #expect(!response.text.contains(long) && !response.text.contains(accented))
      }
      #expect(store.passwordChecks.value == 0)
      #expect(await throttle.remembered == 0)

      // The longest names there may be, all different, from many addresses.
      for index in 0..<1_000 {
        let name = String(format: "%04d", index) + String(repeating: "y", count: 96)
        let person = try await throttle.attempt(
          name: name, address: "10.0.\(index / 250).\(index % 250)"
        ) { nil }
        #expect(person == nil)
        #expect(await throttle.remembered <= 100)
      }
      #expect(await throttle.held == 0)
      // The newest failures are the ones remembered, the oldest forgotten.
      #expect(
        await throttle.delay(for: SignInThrottle.keys(name: "", address: "10.0.3.249")) > .zero)
      #expect(
        await throttle.delay(for: SignInThrottle.keys(name: "", address: "10.0.0.0")) == .zero)
    }
  }

  @Test func attemptsBeyondTheQueueForOneNameAreRefusedAtOnce() async throws {
    let throttle = SignInThrottle(first: .zero, queue: 2)
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    defer { open.finish() }
    let first = Task {
      try await throttle.attempt(name: "ana", address: nil) {
        for await _ in gate { break }
        return nil
      }
    }
    try #require(await eventually { await throttle.held == 1 })
    let queued = (1...2).map { index in
      Task { try await throttle.attempt(name: "ANA", address: "10.0.0.\(index)") { nil } }
    }
    try #require(await eventually { await throttle.waiting == 2 })
    await #expect(throws: SignInThrottle.Busy.self) {
      try await throttle.attempt(name: "Ana", address: "10.0.0.3") { nil }
    }
    // Another name is not held up.
    #expect(try await throttle.attempt(name: "ben", address: "10.0.0.3") { nil } == nil)
    open.yield()
    #expect(try await first.value == nil)
    for attempt in queued { #expect(try await attempt.value == nil) }
    #expect(await throttle.held == 0)
  }

  @Test func formsPostedFromAnotherSiteAreRefusedWithAPageInWords() async throws {
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    try await server.test { http, store in
      let elsewhere: [HTTPFields] = [
        [.origin: "https://evil.example"],
        [.origin: "null"],
        [.origin: "http://localhost.evil.example"],
        [.origin: "http://evil.example", .referer: "http://localhost/sign-in"],
        [.referer: "https://evil.example/localhost"],
        [:],
      ]
      for headers in elsewhere {
        let response = try await http.signIn("ana", "correct horse", headers: headers)
        #expect(response.status == .forbidden, "\(headers)")
        #expect(response.headers[.setCookie] == nil)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        #expect(response.text.contains("so it was not accepted"), "\(headers)")
      }
      let named = try await http.signIn("ana", "x", headers: [.origin: "https://evil.example"])
      #expect(named.text.contains("another site (https://evil.example)"))
      #expect(store.passwordChecks.value == 0)

      // A browser that sends only the page it came from, when it is this server's.
      let signedIn = try await http.signIn(
        "ana", "correct horse", headers: [.referer: "http://localhost/sign-in?next=%2F"])
      #expect(signedIn.status == .seeOther)
      let session = try #require(signedIn.headers[.setCookie]?.split(separator: ";").first)
        .description
      for headers in elsewhere {
        var headers = headers
        headers[.cookie] = session
        let out = try await http.send(.post, "/sign-out", token: nil, headers: headers)
        #expect(out.status == .forbidden, "\(headers)")
        #expect(out.headers[.setCookie] == nil)
      }
      let page = try await http.send(.get, "/", token: nil, headers: [.cookie: session])
      #expect(page.status == .ok, "the session outlived the other site's sign-out")
    }
  }
}

/// Waits until `condition` holds, looking again whenever other tasks have had their turn; false
/// when it still does not after `limit` (a test waiting on a bug fails instead of hanging).
func eventually(within limit: Duration = .seconds(20), _ condition: () async -> Bool) async -> Bool
{
  let deadline = ContinuousClock.now + limit
  while await !condition() {
    guard ContinuousClock.now < deadline else { return false }
    await Task.yield()
  }
  return true
}
