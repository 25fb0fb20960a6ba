import AudioCaptureClient
import CPulse
import Foundation

/// Lists the server's sources with the asynchronous API (the simple API cannot).
enum PulseSources {
  private final class Collected {
    var sources: [(name: String, description: String, monitorOf: String?)] = []
    var defaultSource: String?
    var defaultSink: String?
    var pending = 2
  }

  static func list(server: String?) throws(AudioCaptureError) -> [AudioSource] {
    guard let loop = pa_mainloop_new() else { throw .failed(reason: "cannot create a main loop") }
    defer { pa_mainloop_free(loop) }
    guard let context = pa_context_new(pa_mainloop_get_api(loop), "SyncUps") else {
      throw .failed(reason: "cannot create a context")
    }
    defer {
      pa_context_disconnect(context)
      pa_context_unref(context)
    }
    guard pa_context_connect(context, server, PA_CONTEXT_NOFLAGS, nil) >= 0 else {
      throw .serverNotRunning(reason: String(cString: pa_strerror(pa_context_errno(context))))
    }
    while true {
      let state = pa_context_get_state(context)
      if state == PA_CONTEXT_READY { break }
      if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
        throw .serverNotRunning(reason: String(cString: pa_strerror(pa_context_errno(context))))
      }
      if pa_mainloop_iterate(loop, 1, nil) < 0 {
        throw .serverNotRunning(reason: "main loop failed")
      }
    }
    let collected = Collected()
    let box = Unmanaged.passRetained(collected)
    defer { box.release() }
    let sourcesOperation = pa_context_get_source_info_list(
      context,
      { _, info, eol, userdata in
        let collected = Unmanaged<Collected>.fromOpaque(userdata!).takeUnretainedValue()
        if eol != 0 {
          collected.pending -= 1
        } else if let info {
          collected.sources.append(
            (
              String(cString: info.pointee.name),
              info.pointee.description.map { String(cString: $0) } ?? "",
              info.pointee.monitor_of_sink_name.map { String(cString: $0) }
            ))
        }
      }, box.toOpaque())
    let serverOperation = pa_context_get_server_info(
      context,
      { _, info, userdata in
        let collected = Unmanaged<Collected>.fromOpaque(userdata!).takeUnretainedValue()
        collected.defaultSource = info?.pointee.default_source_name.map { String(cString: $0) }
        collected.defaultSink = info?.pointee.default_sink_name.map { String(cString: $0) }
        collected.pending -= 1
      }, box.toOpaque())
    defer {
      if let sourcesOperation { pa_operation_unref(sourcesOperation) }
      if let serverOperation { pa_operation_unref(serverOperation) }
    }
    while collected.pending > 0 {
      if pa_mainloop_iterate(loop, 1, nil) < 0 {
        throw .connectionLost(reason: String(cString: pa_strerror(pa_context_errno(context))))
      }
    }
    return collected.sources.map {
      AudioSource(
        name: $0.name, description: $0.description, isDefault: $0.name == collected.defaultSource,
        monitorOf: $0.monitorOf,
        monitorsDefaultOutput: $0.monitorOf != nil && $0.monitorOf == collected.defaultSink)
    }
  }
}
