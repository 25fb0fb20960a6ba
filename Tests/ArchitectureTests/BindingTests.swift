import Architecture
import Testing

private struct Form: Reducer {
  struct State: Equatable {
    var title = ""
    var isPrivate = false
    var titleEdits = 0
  }

  enum Action: Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if action.binding?.keyPath == \State.title { state.titleEdits += 1 }
      return .none
    }
  }
}

@MainActor
struct BindingTests {
  @Test func bindingActionsWriteStateAndCanBeObserved() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(.binding(.set(\.title, "Design"))) {
      $0.title = "Design"
      $0.titleEdits = 1
    }
    await store.send(.binding(.set(\.isPrivate, true))) { $0.isPrivate = true }
  }

  @Test func bindingActionsCompareByKeyPathAndValue() {
    typealias Binding = BindingAction<Form.State>
    #expect(Binding.set(\.title, "a") == Binding.set(\.title, "a"))
    #expect(Binding.set(\.title, "a") != Binding.set(\.title, "b"))
    #expect(Binding.set(\.isPrivate, true) != Binding.set(\.title, "a"))
  }
}
