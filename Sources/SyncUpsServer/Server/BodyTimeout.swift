import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body stalls: once its head has arrived, no part of its
/// body for `timeout` (a laptop whose Wi-Fi died mid-upload, or someone holding uploads open on
/// purpose). The server reads bodies as they come (an upload is spooled to a file, holding no
/// database connection), so a body that stops is the client's doing. The clock stops when the
/// body has ended or the answer has been sent.
final class BodyTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let timeout: TimeAmount
  private var deadline: Scheduled<Void>?

  init(timeout: TimeAmount) {
    self.timeout = timeout
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head, .body: arm(context)
    case .end: disarm()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { disarm() }
    context.write(data, promise: promise)
  }

  private func arm(_ context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
      context.close(promise: nil)
    }
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
  }

  func channelInactive(context: ChannelHandlerContext) {
    disarm()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    disarm()
  }
}
