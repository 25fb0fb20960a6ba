import Foundation

/// `GET /api/v1/me`: who the token belongs to, so a laptop that joins can name its person.
public struct Me: Codable, Equatable, Sendable {
  public var name: String
  public var role: String

  public init(name: String, role: String) {
    self.name = name
    self.role = role
  }

  public init(_ person: Person) {
    self.init(name: person.name, role: person.role.rawValue)
  }
}
