"""Helpers of Models/narrowband/build (numpy only):
  channel.py weights SENDUMP OUT        the model's compressed mixture weights as bw reads them
  channel.py compose NARROW WIDE OUT    the channel part of two MLLR transforms of one voice
"""
import math
import struct
import sys

import numpy


def weights(sendump, out):
    """sendump: per stream and codeword one byte per senone, -log base 1.0001 of the weight
    shifted right by 10 bits; out: SphinxTrain's uncompressed mixture_weights."""
    data = open(sendump, "rb").read()
    offset, streams = 0, 1
    while True:
        (length,) = struct.unpack_from("<i", data, offset)
        offset += 4
        if length == 0:
            break
        words = data[offset:offset + length].decode("latin-1").strip("\0").split()
        offset += length
        if len(words) == 2 and words[0] == "feature_count":
            streams = int(words[1])
    densities, senones = struct.unpack_from("<ii", data, offset)
    offset += 8
    q = numpy.frombuffer(data, numpy.uint8, streams * densities * senones, offset)
    w = numpy.exp(-q.astype(float) * 1024 * math.log(1.0001))
    w = w.reshape(streams, densities, senones).transpose(2, 0, 1)
    w /= w.sum(axis=2, keepdims=True)
    header = "s3\nversion 1.0\n"
    header += " " * ((4 - (len(header) + len("endhdr\n")) % 4) % 4) + "endhdr\n"
    with open(out, "wb") as f:
        f.write(header.encode())
        f.write(struct.pack("<5I", 0x11223344, senones, streams, densities, w.size))
        f.write(w.astype("<f4").tobytes())


def read(path):
    """A one-class -mllr file: [(A, b, variance scale)] per stream."""
    tokens = open(path).read().split()
    assert int(tokens[0]) == 1, "one regression class expected"
    index, out = 2, []
    for _ in range(int(tokens[1])):
        n = int(tokens[index])
        values = [float(t) for t in tokens[index + 1:index + 1 + n * n + 2 * n]]
        out.append((numpy.array(values[:n * n]).reshape(n, n),
                    numpy.array(values[n * n:n * n + n]), values[n * n + n:]))
        index += 1 + n * n + 2 * n
    return out


def compose(narrow, wide, out):
    """narrow maps the model's means to the voice heard narrowband, wide to the same voice heard
    wideband: the channel is narrow after wide's inverse, mu -> A_n A_w^-1 (mu - b_w) + b_n, so
    what is the voice's own (and the words') cancels and what the band does stays."""
    streams = []
    for (a_n, b_n, scale), (a_w, b_w, _) in zip(read(narrow), read(wide)):
        a = a_n @ numpy.linalg.inv(a_w)
        streams.append((a, b_n - a @ b_w, scale))
    with open(out, "w") as f:
        f.write(f"1\n{len(streams)}\n")
        for a, b, scale in streams:
            f.write(f"{len(b)}\n")
            for row in a:
                f.write(" ".join(f"{x:.6f}" for x in row) + "\n")
            f.write(" ".join(f"{x:.6f}" for x in b) + "\n")
            f.write(" ".join(f"{x:.1f}" for x in scale) + "\n")


if __name__ == "__main__":
    {"weights": weights, "compose": compose}[sys.argv[1]](*sys.argv[2:])
