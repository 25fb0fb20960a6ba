import Hummingbird
import Logging

extension TeamServer {
  /// The web pages (issue 20): sign in and out and the assets for everyone; the rest for the
  /// signed in (session cookie or bearer token), others are sent to the sign-in page.
  func addPages(to router: Router<TeamContext>, logger: Logger) {
    router.get("assets/:file") { _, context in
      try Assets.response(context.parameters.get("file") ?? "")
    }
    router.get("sign-in") { request, _ -> Response in
      let next = SignInPage.safeNext(request.uri.queryParameters["next"].map(String.init))
      return .html(SignInPage.render(next: next))
    }
    router.post("sign-in") { request, context in try await signIn(request, context: context) }
    router.post("sign-out") { request, _ in try await signOut(request) }

    let pages = router.group().add(
      middleware: SessionMiddleware(store: store, signedOut: .signIn, logger: logger))
    pages.get("/") { _, context in try await syncUpsPage(context: context) }
    pages.get("sync-ups/:id") { request, context in
      try await meetingsPage(request, context: context)
    }
    pages.get("meetings/:id") { request, context in
      try await meetingPage(request, context: context)
    }
    pages.get("meetings/:id/:file") { request, context in
      try await transcriptDownload(request, context: context)
    }
    pages.get("search") { request, context in try await searchPage(request, context: context) }
  }
}
