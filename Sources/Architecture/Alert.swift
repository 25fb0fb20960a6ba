import CustomDump

/// Plain text for alerts and buttons: a value a terminal UI renders as it is.
public struct TextState: Equatable, Hashable, Sendable, ExpressibleByStringInterpolation,
  CustomDumpStringConvertible, CustomStringConvertible
{
  public let string: String
  public init(_ string: String) { self.string = string }
  public init(stringLiteral value: String) { self.string = value }
  public var description: String { string }
  public var customDumpDescription: String { "TextState(\(string.debugDescription))" }
}

public enum ButtonStateRole: Equatable, Hashable, Sendable {
  case cancel
  case destructive
}

/// A button of an alert: its label, its role, and the action sent when it is chosen
/// (none for a plain "Cancel", which only dismisses).
public struct ButtonState<Action> {
  public let role: ButtonStateRole?
  public let action: Action?
  public let label: TextState

  public init(role: ButtonStateRole? = nil, action: Action? = nil, label: () -> TextState) {
    self.role = role
    self.action = action
    self.label = label()
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }
  public static func buildEither(first: [ButtonState<Action>]) -> [ButtonState<Action>] { first }
  public static func buildEither(second: [ButtonState<Action>]) -> [ButtonState<Action>] { second }
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
}

/// An alert as data: title, optional message and buttons. Choosing a button sends its action
/// through `PresentationAction.presented`, after which `ifLet` dismisses the alert by itself.
public struct AlertState<Action>: _EphemeralState {
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// The button a user picks to leave the alert without choosing anything.
  public var cancelButton: ButtonState<Action>? {
    buttons.first { $0.role == .cancel }
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
