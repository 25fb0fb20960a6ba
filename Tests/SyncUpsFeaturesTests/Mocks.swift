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
