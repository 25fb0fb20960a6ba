import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head has not arrived whole within `timeout` of its first
/// bytes.
///
/// Hummingbird's idle timeout also closes a connection whose head never ends (no whole part of a
/// request arrives), but only that long after the previous answer, and keep-alive wants that to
/// be long; a head needs far less. This handler sits after the HTTP decoder, where a head shows
/// as a whole `.head`; the bytes of a head still arriving show only as the end of a socket read
/// (`channelReadComplete`) while no request is open.
final class HeaderTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let timeout: TimeAmount
  /// Heads read whose responses have not ended yet.
  private var open = 0
  private var deadline: Scheduled<Void>?

  init(timeout: TimeAmount) {
    self.timeout = timeout
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) {
      open += 1
      deadline?.cancel()
      deadline = nil
    }
    context.fireChannelRead(data)
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    // Bytes arrived and no request is open: they are the start of the next head.
    if open == 0 && deadline == nil {
      deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
        context.close(promise: nil)
      }
    }
    context.fireChannelReadComplete()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { open = max(0, open - 1) }
    context.write(data, promise: promise)
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }
}
