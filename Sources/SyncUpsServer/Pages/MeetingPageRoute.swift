import Foundation
import Hummingbird
import StandupDigest
import SyncUpsWire

extension TeamServer {
  /// The meeting's page: 304 when the asker has this very page (`MeetingPageCache.tag`), its
  /// transcript and digest from the cache when they are there for the version of the meeting's
  /// last write (and, for the digest, its sync-up's attendees now).
  func meetingPage(_ request: Request, context: TeamContext) async throws -> Response {
    var time: Double?
    if let text = request.uri.queryParameters["t"] {
      guard let seconds = Double(text), (0...Rules.longestMeeting).contains(seconds) else {
        throw APIError(.badRequest, "?t= takes seconds from the meeting's start, as in ?t=75.5")
      }
      time = seconds
    }
    let person = try context.requirePerson()
    let (meeting, version, title, theme) = try await meetingHeading(request, context: context)
    let speakers = try await store.speakersToCorrect(meeting, by: person)
    var attendees = speakers ?? []
    if speakers == nil { attendees = try await store.attendeeNames(of: meeting.syncUpID) }
    let tag = meetingPages.tag(
      of: meeting, version: version, title: title, theme: theme, person: person, at: time,
      speakers: speakers, attendees: attendees)
    if ETag.matches(tag, ETag.named(in: request)) {
      return Response(
        status: .notModified,
        headers: [.eTag: tag, .cacheControl: MeetingPageCache.cacheControl])
    }
    let (digest, transcript) = try await digestAndTranscript(
      of: meeting, version: version, attendees: attendees, at: time)
    var response = Response.html(
      MeetingPage.render(
        meeting, digest: digest, transcript: transcript, title: title, theme: theme,
        person: person, at: time, speakers: speakers))
    response.headers[.eTag] = tag
    response.headers[.cacheControl] = MeetingPageCache.cacheControl
    return response
  }

  /// The page's digest and transcript: from the cache, else made (and kept, for the page
  /// without a time, the same for everyone).
  private func digestAndTranscript(
    of meeting: MeetingDocument, version: Int64, attendees: [String], at time: Double?
  ) async throws -> (digest: Markup, transcript: Markup) {
    let cachedDigest = meetingPages.digest(of: meeting.id, at: version, attendees: attendees)
    if time == nil, let cached = meetingPages.transcript(of: meeting.id, at: version) {
      if let cachedDigest { return (cachedDigest, cached) }
      // The transcript is kept but not this digest: the segments' text alone is read.
      let segments = try await store.digestSegments(of: [meeting.id])[meeting.id] ?? []
      let digest = DigestSection.render(
        Digest(segments: segments, attendees: attendees), spoke: !segments.isEmpty)
      meetingPages.keep(digest: digest, attendees: attendees, of: meeting.id, at: version)
      return (digest, cached)
    }
    let segments = try await store.segments(of: meeting.id)
    let here = time.flatMap { time in segments.lastIndex { $0.start <= time + 0.005 } }
    let transcript = MeetingPage.transcript(segments, here: here)
    let digest =
      cachedDigest
      ?? DigestSection.render(
        Digest(segments, attendees: attendees), spoke: !segments.isEmpty)
    if time == nil {
      meetingPages.keep(
        transcript, digest: digest, attendees: attendees, of: meeting.id, at: version)
    }
    return (digest, transcript)
  }
}
