import Foundation
import SyncUpsFeatures

extension SyncUp {
  /// A sync-up for tests: three attendees, six minutes, two minutes each.
  static let mock = SyncUp(
    id: SyncUp.ID(UUID(0)),
    attendees: [
      Attendee(id: Attendee.ID(UUID(1)), name: "Blob"),
      Attendee(id: Attendee.ID(UUID(2)), name: "Blob Jr"),
      Attendee(id: Attendee.ID(UUID(3)), name: "Blob Sr"),
    ],
    duration: .seconds(6),
    meetings: [],
    theme: .orange,
    title: "Morning Sync"
  )
}

extension Shared where Value == IdentifiedArrayOf<SyncUp> {
  /// Puts `syncUps` in the test's in-memory database through this reference, as the app saves
  /// them (the write is committed when this returns).
  func seed(_ syncUps: IdentifiedArrayOf<SyncUp>) throws {
    withLock { $0 = syncUps }
    try save()
  }
}
