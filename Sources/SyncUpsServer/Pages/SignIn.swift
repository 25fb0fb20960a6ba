import Foundation
import Hummingbird
import NIOCore

/// The sign-in page: a name and the password set with `syncups-server user password NAME`.
/// A failure says the same whether the name exists or not, and each failure in a row for a
/// name or from an address makes the next attempt wait longer (`SignInThrottle`).
enum SignInPage {
  static let failure = "That name and password do not match. Check both and try again."
  static let tooLong =
    "No one here has a name that long (at most \(Person.longestName) characters). Check it and try again."
  static let busy =
    "Too many sign-ins for this name or from this address are waiting. Wait a minute and try again."

  static func render(name: String = "", next: String, problem: String? = nil) -> String {
    var content: Markup = "<div class=\"card narrow\">\n<h1>Sign in</h1>\n"
    if let problem {
      content += "<p class=\"problem\" role=\"alert\" id=\"problem\">\(problem)</p>\n"
    }
    let described: Markup = problem == nil ? "" : " aria-describedby=\"problem\""
    content += "<form class=\"stack\" action=\"/sign-in\" method=\"post\">\n"
    content += "<input type=\"hidden\" name=\"next\" value=\"\(next)\">\n"
    content += "<label for=\"name\">Name</label>\n"
    content += "<input id=\"name\" name=\"name\" autocomplete=\"username\" required"
    content += name.isEmpty ? " autofocus" : ""
    content += "\(described) value=\"\(name)\">\n<label for=\"password\">Password</label>\n"
    content += "<input id=\"password\" name=\"password\" type=\"password\" "
    content += "autocomplete=\"current-password\" required"
    content += name.isEmpty ? "" : " autofocus"
    content += "\(described)>\n<button type=\"submit\">Sign in</button>\n</form>\n"
    content += "<p class=\"hint\">Your password is set by whoever runs the server, with "
    content += "<code>syncups-server user password NAME</code>.</p>\n</div>\n"
    return Pages.page(title: "Sign in", person: nil, content: content)
  }
}
