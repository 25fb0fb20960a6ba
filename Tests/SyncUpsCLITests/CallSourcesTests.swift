import AudioCaptureClient
import SyncUpsCLI
import Testing

/// `record --call`: the default microphone and the monitor of the default output, or one line
/// saying what is missing and what to do.
struct CallSourcesTests {
  let microphone = AudioSource(name: "alsa_input.usb", description: "USB mic", isDefault: true)
  let speakers = AudioSource(
    name: "alsa_output.pci.monitor", description: "Monitor of Speakers", isDefault: false,
    monitorOf: "alsa_output.pci", monitorsDefaultOutput: true)
  let headset = AudioSource(
    name: "bluez_sink.monitor", description: "Monitor of Headset", isDefault: false,
    monitorOf: "bluez_sink")

  @Test func picksTheDefaultMicrophoneAndTheMonitorOfTheDefaultOutput() throws {
    #expect(
      try RecordSession.callSources(from: [headset, speakers, microphone])
        == ["alsa_input.usb", "alsa_output.pci.monitor"])
  }

  @Test func whatIsMissingIsOneLine() {
    func problem(_ sources: [AudioSource]) -> String? {
      do {
        _ = try RecordSession.callSources(from: sources)
        return nil
      } catch {
        return error.message
      }
    }
    let noOutput = problem([microphone, headset])
    #expect(noOutput?.hasPrefix("--call: PulseAudio has no default output") == true)
    #expect(noOutput?.contains("pactl set-default-sink") == true)
    var noMicrophone = microphone
    noMicrophone.isDefault = false
    #expect(
      problem([noMicrophone, speakers])?.hasPrefix("--call: PulseAudio has no default microphone")
        == true)
    var monitorAsDefault = speakers
    monitorAsDefault.isDefault = true
    #expect(
      problem([monitorAsDefault])?.hasPrefix(
        "--call: PulseAudio's default source, alsa_output.pci.monitor, is the monitor of an output")
        == true)
    for line in [noOutput, problem([]), problem([monitorAsDefault])] {
      #expect(line?.contains("\n") == false)
    }
  }
}
