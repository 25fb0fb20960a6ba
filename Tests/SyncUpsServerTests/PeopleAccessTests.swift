import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Taking access away: a new password or a revoked token ends a person's web sessions, a
/// removed person's tokens and sessions stop at once (what they wrote stays), and a new role
/// counts from the next request. Through the store and through the `syncups-server` binary.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct PeopleAccessTests {
  @Test func aNewPasswordEndsThatPersonsSessionsAndNoOneElses() async throws {
    let server = try await TestServer.make()
    try await server.store { store in
      try await store.setPassword(name: "Ana", password: "correct horse")
      try await store.setPassword(name: "Ben", password: "battery staple")
    }
    try await server.test { http, store in
      let ana = try await http.session("ana", "correct horse")
      let ben = try await http.session("ben", "battery staple")
      #expect(try await http.page(with: ana) == .ok)
      try await store.setPassword(name: "ana", password: "a new password")
      #expect(try await http.page(with: ana) == .seeOther)
      #expect(try await http.page(with: ben) == .ok)
      let again = try await http.session("ana", "a new password")
      #expect(try await http.page(with: again) == .ok)
    }
  }

  @Test func revokingATokenEndsTheSessionsOfItsPerson() async throws {
    let server = try await TestServer.make()
    try await server.store { store in
      try await store.setPassword(name: "Ana", password: "correct horse")
      try await store.setPassword(name: "Ben", password: "battery staple")
    }
    try await server.test { http, store in
      let ana = try await http.session("ana", "correct horse")
      let ben = try await http.session("ben", "battery staple")
      let id = try #require(try await store.tokens().first { $0.person == "Ana" }?.id)
      try await store.revokeToken(id: id)
      #expect(try await http.page(with: ana) == .seeOther)
      #expect(try await http.page(with: ben) == .ok)
      #expect(
        try await http.send(.get, "/api/v1/me", token: server.writerToken).status == .unauthorized)
    }
  }

  @Test func aRemovedPersonIsLockedOutAtOnceAndWhatTheyWroteStays() async throws {
    let server = try await TestServer.make()
    let (syncUp, meeting) = try await server.pushMeeting()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    try await server.test { http, store in
      let session = try await http.session("ana", "correct horse")
      let removed = try await store.removePerson(name: "ANA")
      #expect(removed.name == "Ana")
      // The very next requests are refused.
      #expect(
        try await http.send(.get, "/api/v1/me", token: server.writerToken).status == .unauthorized)
      #expect(try await http.page(with: session) == .seeOther)
      #expect(try await http.signIn("ana", "correct horse").status == .unauthorized)
      #expect(try await store.person(named: "Ana") == nil)
      #expect(try await store.people().map(\.name) == ["Ben"])
      #expect(
        try await store.tokens().filter { $0.person == "Ana" }.allSatisfy { $0.revoked != nil })
      // What they wrote stays, and so does who wrote it.
      let read = try await http.send(
        .get, "/api/v1/meetings/\(meeting.id)", token: server.readerToken)
      #expect(read.status == .ok)
      #expect(try await store.syncUpExists(syncUp.id))
      let receipts = try await store.client.query(
        "SELECT count(*) FROM push_receipt WHERE person_id = \(removed.id)"
      ).all(Int.self)
      #expect(receipts == [1])
      // Removed twice, or someone who never was: one sentence.
      await #expect(throws: ServerError.failed("nobody is called 'ana' here; see `user list`")) {
        try await store.removePerson(name: "ana")
      }
      // The name can be someone's again, with new tokens; the old one stays dead.
      let again = try await store.addPerson(name: "ana", role: .reader)
      #expect(again.id != removed.id)
      let token = try await store.createToken(for: "Ana").token
      #expect(try await http.send(.get, "/api/v1/me", token: token).status == .ok)
      #expect(
        try await http.send(.get, "/api/v1/me", token: server.writerToken).status == .unauthorized)
      #expect(try await http.page(with: session) == .seeOther)
    }
  }

  @Test func aNewRoleCountsFromTheNextRequest() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp()], meetings: [])
      #expect(try await http.push(push, token: server.readerToken).status == .forbidden)
      let ben = try await store.setRole(name: "ben", role: .writer)
      #expect(ben.name == "Ben" && ben.role == .writer)
      #expect(try await http.push(push, token: server.readerToken).status == .ok)
      _ = try await store.setRole(name: "Ana", role: .reader)
      let me = try await http.send(.get, "/api/v1/me", token: server.writerToken)
      #expect(try me.decode(Me.self).role == "reader")
      await #expect(throws: ServerError.failed("nobody is called 'Zed' here; see `user list`")) {
        try await store.setRole(name: "Zed", role: .writer)
      }
    }
  }

  @Test func removingPeopleAndChangingRolesFromTheCommandLine() async throws {
    let server = try await TestServer.make()
    let url = server.urlText
    let role = try await runServer(["user", "role", "ben", "--role", "writer"], database: url)
    #expect(role.status == 0, "\(role.stderr)")
    #expect(role.stdout == "Ben is now a writer.\n")
    #expect(
      try await server.store { try await $0.person(token: server.readerToken) }?.role == .writer)

    let removed = try await runServer(["user", "remove", "ana"], database: url)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.hasPrefix("Removed Ana:"))
    #expect(try await server.store { try await $0.person(token: server.writerToken) } == nil)
    let list = try await runServer(["user", "list"], database: url)
    #expect(
      list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ")[0] } == ["Ben"])
    let added = try await runServer(["user", "add", "Ana", "--role", "reader"], database: url)
    #expect(added.status == 0, "\(added.stderr)")

    // Each mistake: one line saying what is wrong and what to do, and a failure status.
    for (arguments, words) in [
      (["user", "remove", "Zed"], "nobody is called 'Zed' here; see `user list`"),
      (["user", "role", "Zed", "--role", "reader"], "nobody is called 'Zed' here"),
      (["user", "role", "Ben", "--role", "admin"], "--role is reader or writer, not 'admin'"),
      (["serve", "--port", "0", "--trusted-proxy", "proxy.example"], "--trusted-proxy takes"),
    ] {
      let run = try await runServer(arguments, database: url)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    #expect(try await server.store { try await $0.person(named: "Ben") }?.role == .writer)

    let password = try await runServer(
      ["user", "password", "Ben"], database: url, stdin: "battery staple\n")
    #expect(password.status == 0, "\(password.stderr)")
  }
}

extension TestClientProtocol {
  /// Signs in from the server's own page; the session cookie (`syncups_session=...`).
  func session(_ name: String, _ password: String) async throws -> String {
    let response = try await signIn(name, password)
    #expect(response.status == .seeOther)
    return try #require(response.headers[.setCookie]?.split(separator: ";").first).description
  }

  /// The status of the sync-ups page with a session: 200, or 303 to the sign-in page.
  func page(with session: String) async throws -> HTTPResponse.Status {
    try await send(.get, "/", token: nil, headers: [.cookie: session]).status
  }
}
