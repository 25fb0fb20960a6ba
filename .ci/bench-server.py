#!/usr/bin/python3
"""Helpers of .ci/bench-server (Python's standard library only).

  bench-server.py seed URL TOKEN COUNT OUT.lua   pushes COUNT fifteen-minute meetings (about
                                                 2,300 words each, five sync-ups, 50 a push),
                                                 written from the words of Samples/*.txt; prints
                                                 the seconds the pushes took (written before,
                                                 not timed); then writes wrk's Lua scripts
                                                 OUT-search.lua, OUT-meeting.lua, OUT-page.lua
                                                 and OUT-list.lua with paths over what it pushed
  bench-server.py long URL TOKEN OUT.lua         pushes one 60-minute meeting (about 9,000 words)
                                                 and writes OUT-page.lua (its web page) and
                                                 OUT-json.lua (the API's JSON of it)
  bench-server.py pushes URL TOKEN LAPTOPS EACH  LAPTOPS pushers at once (a device id each),
                                                 EACH pushes of one meeting apiece: prints
                                                 pushes per second
  bench-server.py audio URL TOKEN MB FILE        writes MB megabytes of random bytes to FILE,
                                                 uploads them as a meeting's audio and pushes
                                                 the meeting: prints its id and the SHA-256
  bench-server.py sendfile - - FILE              the least an HTTP download can cost here: a
                                                 server on a free loopback port that answers
                                                 every GET with FILE, handed to the kernel
                                                 (sendfile); prints its URL, serves until killed
"""
import hashlib
import json
import os
import random
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "Samples"
SENTENCES = [
    line.strip()
    for name in ("standup.txt", "hello.txt", "vocabulary.txt", "standup.sentences.txt")
    if (SAMPLES / name).exists()
    for line in (SAMPLES / name).read_text().lower().replace(".", "\n").replace(",", " ").splitlines()
    if len(line.split()) >= 3
]
WORDS = sorted({w.strip("?!;:'\"") for s in SENTENCES for w in s.split() if w.isascii()} - {""})
SPEAKERS = ["Ana", "Ben", "Cleo", "Dev"]
QUERIES = ["build server", "database", "migr*", '"release notes"', "monday", "search feature",
           "pull request", "bugs", "staging", "tests"]


def clock(ms, device="bench"):
    return f"{ms:016d}-0000-{device}"


def stamped(value, ms):
    return {"value": value, "clock": clock(ms)}


def sync_up(ms):
    return {
        "id": str(uuid.uuid4()),
        "title": stamped(f"Team {random.choice(['Morning', 'Design', 'Infra', 'Mobile', 'Web'])} Sync", ms),
        "theme": stamped("teal", ms),
        "duration": stamped(900.0, ms),
        "attendees": stamped([{"id": str(uuid.uuid4()), "name": n} for n in SPEAKERS], ms),
        "vocabulary": stamped(["staging server"], ms),
        "deleted": stamped(False, ms),
    }


def meeting(sync_up_id, day, ms, segments=None, minutes=None):
    """A meeting of `segments` segments, or of `minutes` minutes (about 150 words a minute)."""
    start = 0.0
    parts = []
    while len(parts) < segments if segments else start < minutes * 60:
        # A sentence from the samples, now and then with a few of their words shuffled in.
        words = random.choice(SENTENCES).split()
        if random.random() < 0.5:
            words += random.sample(WORDS, 4)
        timed = []
        t = start
        for w in words:
            timed.append({"text": w, "start": round(t, 2), "end": round(t + 0.3, 2)})
            t += 0.35
        parts.append({"speaker": random.choice(SPEAKERS), "start": round(start, 2),
                      "end": round(t, 2), "text": " ".join(words), "words": timed})
        start = t + 0.5
    date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_700_000_000 + day * 86_400))
    return {"id": str(uuid.uuid4()), "syncUpID": sync_up_id, "date": date,
            "length": round(start, 2), "segments": parts, "deleted": False, "clock": clock(ms)}


def post(url, token, document):
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    request = urllib.request.Request(
        url + "/api/v1/sync/push", data=body, method="POST",
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        if response.status != 200:
            raise SystemExit(f"push answered {response.status}")
        response.read()


def lua(path, token, paths):
    quoted = ",\n  ".join(json.dumps(p) for p in paths)
    Path(path).write_text(
        "local paths = {\n  " + quoted + "\n}\n"
        "math.randomseed(42)\n"
        "request = function()\n"
        "  return wrk.format('GET', paths[math.random(#paths)], "
        "{['Authorization'] = 'Bearer " + token + "'})\n"
        "end\n")


def seed(url, token, count, out):
    random.seed(count)
    ms = int(time.time() * 1000)
    device = str(uuid.uuid4())
    ups = [sync_up(ms) for _ in range(5)]
    post(url, token, {"device": device, "pushID": str(uuid.uuid4()), "syncUps": ups, "meetings": []})
    ids = []
    # Every push written first, so that only the pushing is timed.
    pushes = []
    for start in range(0, count, 50):
        batch = [meeting(ups[n % 5]["id"], n, ms + 1, minutes=15)
                 for n in range(start, min(start + 50, count))]
        ids += [document["id"] for document in batch]
        pushes.append(json.dumps({"device": device, "pushID": str(uuid.uuid4()), "syncUps": [],
                                  "meetings": batch}).encode())
    begun = time.monotonic()
    for body in pushes:
        post(url, token, body)
    print(f"{time.monotonic() - begun:.2f}")
    lua(out + "-search.lua", token,
        ["/api/v1/search?q=" + urllib.parse.quote(q, safe="") for q in QUERIES])
    sample = random.sample(ids, min(200, len(ids)))
    lua(out + "-meeting.lua", token, ["/api/v1/meetings/" + i for i in sample])
    lua(out + "-page.lua", token, ["/meetings/" + i for i in sample])
    lua(out + "-list.lua", token,
        ["/api/v1/sync-ups"] + ["/api/v1/sync-ups/" + u["id"] + "/meetings" for u in ups])


def long(url, token, out):
    random.seed(60)
    ms = int(time.time() * 1000)
    up = sync_up(ms)
    document = meeting(up["id"], 0, ms + 1, segments=590)
    words = sum(len(part["words"]) for part in document["segments"])
    post(url, token, {"device": str(uuid.uuid4()), "pushID": str(uuid.uuid4()), "syncUps": [up],
                      "meetings": [document]})
    lua(out + "-page.lua", token, ["/meetings/" + document["id"]])
    lua(out + "-json.lua", token, ["/api/v1/meetings/" + document["id"]])
    print(f"{document['length'] / 60:.0f} minutes, {words} words")


def pushes(url, token, laptops, each):
    ms = int(time.time() * 1000)
    up = sync_up(ms)
    post(url, token, {"device": str(uuid.uuid4()), "pushID": str(uuid.uuid4()), "syncUps": [up],
                      "meetings": []})
    documents = [[{"device": None, "pushID": str(uuid.uuid4()), "syncUps": [],
                   "meetings": [meeting(up["id"], i, ms + 1, segments=24)]} for i in range(each)]
                 for _ in range(laptops)]
    failures = []

    def laptop(k):
        device = str(uuid.uuid4())
        try:
            for document in documents[k]:
                document["device"] = device
                post(url, token, document)
        except Exception as error:  # counted, and the figure is refused
            failures.append(str(error))

    threads = [threading.Thread(target=laptop, args=(k,)) for k in range(laptops)]
    begun = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - begun
    if failures:
        raise SystemExit(f"{len(failures)} laptops failed: {failures[0]}")
    print(f"{laptops * each / elapsed:.1f}")


def audio(url, token, megabytes, path):
    data = os.urandom(megabytes * 1024 * 1024)
    Path(path).write_bytes(data)
    sha = hashlib.sha256(data).hexdigest()
    request = urllib.request.Request(
        url + "/api/v1/audio/" + sha, data=data, method="PUT",
        headers={"Authorization": "Bearer " + token, "Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request, timeout=600) as response:
        response.read()
    ms = int(time.time() * 1000)
    up = sync_up(ms)
    document = meeting(up["id"], 0, ms + 1, segments=3)
    document["audio"] = {"sha256": sha, "size": len(data), "type": "audio/wav"}
    post(url, token, {"device": str(uuid.uuid4()), "pushID": str(uuid.uuid4()), "syncUps": [up],
                      "meetings": [document]})
    print(document["id"], sha)


def sendfile(path):
    import socket
    size = os.path.getsize(path)
    listener = socket.create_server(("127.0.0.1", 0))
    print("http://127.0.0.1:%d/" % listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        with connection, open(path, "rb") as file:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                               b"Connection: close\r\n\r\n" % size)
            connection.sendfile(file)


if __name__ == "__main__":
    command, url, token = sys.argv[1], sys.argv[2], sys.argv[3]
    if command == "seed":
        seed(url, token, int(sys.argv[4]), sys.argv[5])
    elif command == "long":
        long(url, token, sys.argv[4])
    elif command == "pushes":
        pushes(url, token, int(sys.argv[4]), int(sys.argv[5]))
    elif command == "audio":
        audio(url, token, int(sys.argv[4]), sys.argv[5])
    elif command == "sendfile":
        sendfile(sys.argv[4])
    else:
        raise SystemExit(__doc__)
