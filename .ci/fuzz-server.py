"""Random hostile requests against a running syncups-server (see .ci/fuzz-server).

  fuzz-server.py URL WRITER_TOKEN READER_TOKEN REQUESTS SERVER_PID

About two thirds are pushes of random documents (and some malformed bodies), the rest page and
API requests over what the server kept, with odd parameters. Every answer must be 2xx or 4xx;
any 5xx, dropped connection or crash fails the run. Seeded, so a failure can be replayed
(FUZZ_SEED)."""

import http.client
import json
import os
import random
import sys
import time
import urllib.parse
import uuid

URL, WRITER, READER, REQUESTS, PID = sys.argv[1:6]
REQUESTS = int(REQUESTS)
SEED = int(os.environ.get("FUZZ_SEED", "31"))
rng = random.Random(SEED)
target = urllib.parse.urlsplit(URL)
NOW = int(time.time() * 1000)

TEXTS = [
    "", "  ", "<script>alert(document.cookie)</script>", "\x1b[31mred\x1b[0m\x07",
    "two\nlines\r\n", "\u202etxt.exe\u200b\ufeff", "\x00nul", "\"'&<>\\ ../../etc/passwd",
    "' OR 1=1; DROP TABLE meeting; --", "\ud7ff\ue000\ufffd\U0010ffff",
]
NUMBERS = [0, -1, -0.0, 1e300, -1e300, 1.7976931348623157e308, 5e-324, 86400, 86400.5, 1e15,
           9.3e18, -9.3e18, 1e-300]
DATES = ["2026-11-20T10:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
         "0001-01-01T00:00:00Z", "2101-01-01T00:00:00Z", "not a date", "2026-13-45T99:99:99Z"]
TYPES = ["audio/flac", "text/html", "image/svg+xml", "audio/wav", "application/javascript"]

sync_up_ids = []
meeting_ids = []


def text():
    if rng.random() < 0.5:
        return rng.choice(["Ana", "Ben", "Morning Sync", "staging server"])
    kind = rng.randrange(5)
    if kind == 0:
        return "\U0001f389" * rng.randrange(1, 300)
    if kind == 1:
        return "e" + "\u0301" * rng.randrange(1, 500)
    if kind == 2:
        return "x" * rng.choice([61, 101, 201, 10001, 200000])
    return rng.choice(TEXTS)


def number():
    return rng.randrange(3_600_000) / 1000 if rng.random() < 0.5 else rng.choice(NUMBERS)


def count():
    return rng.choice([0, 1, 1, 2, 3, 5, 101, rng.randrange(40)])


def clock():
    if rng.random() < 0.9:
        wall = rng.choice([1_700_000_000_000, NOW, NOW - 60_000, NOW + 60_000, 0])
    else:
        wall = rng.choice([NOW + 3_600_000, 9_999_999_999_999_999])
    reading = "%016d-%04d-%s" % (wall, rng.choice([0, 1, 9999]), rng.choice(["a", "zzzz", "x"]))
    return rng.choice(["", "garbage", "0-0-", reading + "\x1b"]) if rng.random() < 0.01 else reading


def stamped(value):
    return {"value": value, "clock": clock()}


def sync_up():
    known = sync_up_ids and rng.random() < 0.2
    identifier = rng.choice(sync_up_ids) if known else str(uuid.UUID(int=rng.getrandbits(128)))
    return {
        "id": identifier, "title": stamped(text()),
        "theme": stamped(rng.choice(["teal", "navy", "poppy"]) if rng.random() < 0.7 else text()),
        "duration": stamped(number()),
        "attendees": stamped([{"id": str(uuid.uuid4()), "name": text()} for _ in range(count())]),
        "vocabulary": stamped([text() for _ in range(count())]),
        "deleted": stamped(rng.random() < 0.15),
    }


def word():
    entry = {"text": text(), "start": number(), "end": number()}
    if rng.random() < 0.5:
        entry["confidence"] = number()
    return entry


def segment():
    entry = {"speaker": text(), "start": number(), "end": number(), "text": text(),
             "words": [word() for _ in range(count())]}
    if rng.random() < 0.25:
        entry["original"] = {"speaker": text(), "text": text(), "words": [word()]}
    return entry


def meeting(parents):
    choices = parents + sync_up_ids
    document = {
        "id": str(uuid.UUID(int=rng.getrandbits(128))),
        "syncUpID": rng.choice(choices) if choices and rng.random() < 0.85 else str(uuid.uuid4()),
        "date": rng.choice(DATES), "length": number(), "deleted": rng.random() < 0.1,
        "clock": clock(), "segments": [segment() for _ in range(count())],
    }
    if rng.random() < 0.3:
        document["audio"] = {"sha256": "ab" * 32 if rng.random() < 0.5 else text(),
                             "size": rng.choice([0, 1, -1, 1 << 40]), "type": rng.choice(TYPES)}
    return document


def push_body():
    if rng.random() < 0.05:
        return rng.choice([b"{", b"null", b"[]", b'{"device": 1}', b"\xff\xfe", b"{}" * 1000])
    sync_ups = [sync_up() for _ in range(rng.randrange(3))]
    parents = [document["id"] for document in sync_ups]
    meetings = [meeting(parents) for _ in range(rng.randrange(3))]
    body = {"device": str(uuid.uuid4()), "pushID": str(uuid.uuid4()), "syncUps": sync_ups,
            "meetings": meetings}
    return json.dumps(body).encode("utf-8", "surrogatepass"), sync_ups, meetings


def page_path():
    quoted = urllib.parse.quote(text(), safe="")
    some_sync_up = rng.choice(sync_up_ids) if sync_up_ids else str(uuid.uuid4())
    some_meeting = rng.choice(meeting_ids) if meeting_ids else str(uuid.uuid4())
    return rng.choice([
        "/", "/api/v1/sync-ups", f"/sync-ups/{some_sync_up}",
        f"/api/v1/sync-ups/{some_sync_up}/meetings?limit={rng.choice([1, 500, 501, -1])}",
        f"/meetings/{some_meeting}", f"/meetings/{some_meeting}?t={rng.choice(NUMBERS)}",
        f"/meetings/{some_meeting}/transcript.{rng.choice(['txt', 'srt', 'vtt', 'json', 'x'])}",
        f"/api/v1/meetings/{some_meeting}", f"/audio/{some_meeting}",
        f"/search?q={quoted}", f"/api/v1/search?q={quoted}&since={urllib.parse.quote(text())}",
        f"/api/v1/sync/changes?since={rng.choice([0, -1, 10**30, 5])}&limit=1000",
        f"/sign-in?next={quoted}", f"/meetings/{quoted}",
    ])


def rss():
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
    statuses = {}
    failures = []
    kept = 0
    pushes = 0
    started = time.time()
    for index in range(REQUESTS):
        if rng.random() < 0.65:
            made = push_body()
            body, sync_ups, meetings = made if isinstance(made, tuple) else (made, [], [])
            method, path, token = "POST", "/api/v1/sync/push", WRITER
            pushes += 1
        else:
            body, sync_ups, meetings = None, [], []
            method, path, token = "GET", page_path(), rng.choice([READER, WRITER])
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (http.client.HTTPException, OSError) as error:
            failures.append(f"{method} {path[:80]}: {error!r}")
            connection.close()
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
            if len(failures) > 20:
                break
            continue
        statuses[status] = statuses.get(status, 0) + 1
        if status >= 500 or status < 200:
            failures.append(f"{method} {path[:80]}: {status}")
        if method == "POST" and status == 200:
            kept += 1
            sync_up_ids.extend(document["id"] for document in sync_ups)
            meeting_ids.extend(document["id"] for document in meetings)
        if (index + 1) % 2000 == 0:
            print(f"fuzz-server: {index + 1} requests, server RSS {rss():.1f} MB", flush=True)
    elapsed = time.time() - started
    summary = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items()))
    print(f"fuzz-server: {sum(statuses.values())} requests in {elapsed:.0f} s "
          f"({pushes} pushes, {kept} kept); statuses {summary}; seed {SEED}")
    for failure in failures[:20]:
        print(f"fuzz-server: FAILED: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


main()
