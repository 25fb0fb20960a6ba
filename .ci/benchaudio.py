"""Audio for the benchmarks: the telephone band and seeded noise over a recording's speech
(`.ci/bench-human`, `.ci/bench-digest`). 16 kHz mono 16-bit WAV in and out."""
import math
import os
import subprocess
import wave

import numpy

RATE = 16000


def run(*args):
    subprocess.run(args, check=True, capture_output=True, text=True)


def read_wav(path):
    with wave.open(path) as f:
        return numpy.frombuffer(f.readframes(f.getnframes()), dtype="<i2").astype(numpy.float64)


def write_wav(path, samples):
    with wave.open(path, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(numpy.clip(numpy.round(samples), -32768, 32767).astype("<i2").tobytes())


def telephone(source, out, mu_law=False):
    """The telephone band: 8 kHz, 300-3400 Hz (mu-law on a call), back up to 16 kHz."""
    narrow = out + ".8k.wav"
    encoding = ["-e", "u-law"] if mu_law else ["-e", "signed-integer"]
    run("sox", "-D", source, "-r", "8000", *encoding, narrow, "sinc", "300-3400")
    run("sox", "-D", narrow, "-r", str(RATE), "-b", "16", "-e", "signed-integer", out)
    os.remove(narrow)


def noisy(source, truth, colour, snr, seed, out):
    """Noise of a colour (white, or pink shaped 1/f) at `snr` dB over the speech's power."""
    speech = read_wav(source)
    noise = numpy.random.default_rng(seed).standard_normal(len(speech))
    if colour == "pink":
        spectrum = numpy.fft.rfft(noise)
        spectrum /= numpy.sqrt(numpy.maximum(numpy.arange(len(spectrum)), 1))
        noise = numpy.fft.irfft(spectrum, len(speech))
    active = numpy.zeros(len(speech), dtype=bool)
    for start, end, _ in truth:
        active[int(start * RATE):int(end * RATE)] = True
    power = numpy.mean(speech[active] ** 2)
    noise *= math.sqrt(power / 10 ** (snr / 10) / numpy.mean(noise ** 2))
    mixed = speech + noise
    write_wav(out, mixed * min(1.0, 30000 / numpy.abs(mixed).max()))
