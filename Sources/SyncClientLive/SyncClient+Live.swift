import Dependencies
import Foundation
import SyncClient
import SyncUpsWire

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension SyncClient: DependencyKey {
  /// HTTP with `URLSession`: JSON both ways (`WireJSON`), `Authorization: Bearer TOKEN`, each
  /// request bounded by the team's timeout; every failure a `SyncFailure`.
  public static let liveValue = SyncClient(
    check: { team in
      let (data, status) = try await HTTP.send(team, HTTP.request(team, "api/v1/me"))
      if status == 200, let member = try? WireJSON.decoder().decode(TeamMember.self, from: data) {
        return member
      }
      // A server without `/me`: a good token reads the change feed.
      _ = try await HTTP.json(
        ChangesPage.self, team,
        HTTP.request(team, "api/v1/sync/changes", ["since": "0", "limit": "1"]))
      return TeamMember()
    },
    push: { team, body in
      var request = HTTP.request(team, "api/v1/sync/push")
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = body
      return try await HTTP.json(PushReceipt.self, team, request)
    },
    changes: { team, since, wait, limit in
      var request = HTTP.request(
        team, "api/v1/sync/changes",
        ["since": String(since), "wait": String(wait), "limit": String(limit)])
      // A long poll waits on the server for up to `wait` seconds before it answers.
      request.timeoutInterval = team.timeout + Double(wait)
      return try await HTTP.json(ChangesPage.self, team, request)
    },
    uploadAudio: { team, sha256, file in
      var request = HTTP.request(team, "api/v1/audio/\(sha256)")
      request.httpMethod = "PUT"
      request.setValue("audio/flac", forHTTPHeaderField: "Content-Type")
      let (data, status) = try await HTTP.send(team, request, upload: file)
      try HTTP.check(status, data)
    },
    downloadAudio: { team, meetingID, file in
      let request = HTTP.request(team, "audio/\(meetingID.uuidString.lowercased())")
      // Straight to the file as it comes, never whole in memory.
      let (data, status) = try await HTTP.send(
        team, request, into: .file(file), limit: HTTP.audioLimit)
      if status == 404 { return false }
      try HTTP.check(status, data)
      return true
    },
    search: { team, query in
      var parameters = ["q": query.text, "limit": String(query.limit)]
      if let id = query.syncUpID { parameters["syncUp"] = id.uuidString.lowercased() }
      if let speaker = query.speaker { parameters["speaker"] = speaker }
      if let since = query.since {
        parameters["since"] = since.formatted(Date.ISO8601FormatStyle())
      }
      return try await HTTP.json(
        [SearchHit].self, team, HTTP.request(team, "api/v1/search", parameters))
    }
  )
}

/// The requests and their failures.
enum HTTP {
  /// The largest JSON answer read. A page of 100 hour-long meetings (9,000 words with their
  /// times each) can pass it: the pull then asks for fewer at a time (see `TeamSync.pull`).
  static let jsonLimit: Int64 = 64 << 20
  /// The largest audio file read: the server's own bound on an upload.
  static let audioLimit: Int64 = 1 << 30

  static func request(_ team: Team, _ path: String, _ query: [String: String] = [:]) -> URLRequest {
    var components = URLComponents(
      url: team.url.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
    if !query.isEmpty {
      components.queryItems = query.sorted { $0.key < $1.key }.map {
        URLQueryItem(name: $0.key, value: $0.value)
      }
      // `+` is a space to many servers: send it encoded.
      components.percentEncodedQuery = components.percentEncodedQuery?
        .replacingOccurrences(of: "+", with: "%2B")
    }
    var request = URLRequest(url: components.url!)
    request.timeoutInterval = team.timeout
    request.setValue("Bearer \(team.token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let name = team.name { request.setValue(name, forHTTPHeaderField: TeamHeader.name) }
    return request
  }

  static func json<T: Decodable>(_ type: T.Type, _ team: Team, _ request: URLRequest)
    async throws -> T
  {
    let (data, status) = try await send(team, request)
    try check(status, data)
    do {
      return try WireJSON.decoder().decode(T.self, from: data)
    } catch {
      throw SyncFailure.unreadable("not the JSON of \(request.url?.path ?? "the route")")
    }
  }

  /// Sends `request` and reads its answer (see `Transfers`): its body (unless it went to a
  /// file) and status. Nothing is sent over plain http:// to another computer unless the team
  /// allows it; a redirect is an error, never followed.
  static func send(
    _ team: Team, _ request: URLRequest, upload: URL? = nil,
    into destination: Transfers.Destination = .memory, limit: Int64 = jsonLimit
  ) async throws -> (Data, Int) {
    if Team.sendsTokenInClear(to: team.url), !team.allowHTTP {
      throw SyncFailure.inClear(team.url)
    }
    let answer = try await failures(team) {
      try await Transfers.run(request, upload: upload, into: destination, limit: limit)
    }
    let status = answer.response.statusCode
    if (300..<400).contains(status) {
      throw SyncFailure.redirected(
        status: status, location: answer.response.value(forHTTPHeaderField: "Location"))
    }
    return (answer.data, status)
  }

  /// Throws the failure a status that is not 2xx means, with the server's sentence.
  static func check(_ status: Int, _ data: Data) throws {
    guard !(200..<300).contains(status) else { return }
    let message =
      (try? WireJSON.decoder().decode(ErrorBody.self, from: data))?.error
      ?? HTTPURLResponse.localizedString(forStatusCode: status)
    switch status {
    case 401: throw SyncFailure.unauthorized(message)
    case 403: throw SyncFailure.forbidden(message)
    default: throw SyncFailure.refused(status: status, message: message)
    }
  }

  /// Runs a request; network errors become `SyncFailure`s.
  static func failures<T>(_ team: Team, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as URLError {
      switch error.code {
      case .timedOut: throw SyncFailure.tooSlow(seconds: team.timeout)
      case .cannotFindHost, .dnsLookupFailed:
        throw SyncFailure.unreachable("no host \(team.url.host ?? team.url.absoluteString)")
      case .cannotConnectToHost:
        throw SyncFailure.unreachable("nothing answers at \(team.url.absoluteString)")
      case .networkConnectionLost:
        throw SyncFailure.unreachable("the connection to \(team.url.absoluteString) was lost")
      case .notConnectedToInternet:
        throw SyncFailure.unreachable("this computer is offline")
      case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
        throw SyncFailure.unreachable("its TLS certificate is not trusted")
      case .badServerResponse, .cannotParseResponse:
        throw SyncFailure.unreadable("not HTTP")
      default:
        throw SyncFailure.unreachable(error.localizedDescription)
      }
    } catch let error as SyncFailure {
      throw error
    } catch {
      throw SyncFailure.unreachable(error.localizedDescription)
    }
  }
}
