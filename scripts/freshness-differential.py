#!/usr/bin/env python3
"""Generates the fixture of the freshness differential test: RFC 9111 verdicts by hishel, a published
implementation, on a few thousand generated `200` responses, for Pinhole's disk-cache rules to be compared with
(Tests/PinholeTests/Caching/FreshnessDifferentialTests.swift; RELIABILITY.md).

Run (regenerates Tests/Fixtures/freshness/hishel-cases.json; the output is the same on every run):

    python3 -m venv /tmp/hv && /tmp/hv/bin/pip install hishel==1.4.0
    /tmp/hv/bin/python scripts/freshness-differential.py

Pinned: hishel 1.4.0 (the script refuses another version: its verdicts are the fixture). Seed: 9111.

Each case is one `200` response, received at `receivedAt`, asked about at `queryAt` (whole seconds since 1970).
To keep the fixture small, a case is a row `[receivedAt - base, queryAt - receivedAt, <one value or null per
name in "fields">, stored, fresh, lifetime, age]` (stored and fresh as 0/1; lifetime may be null). hishel is run as a private cache (`CacheOptions(shared=False)`) through
its own sans-IO state machine: `CacheMiss.next` says whether the response is stored; `IdleClient.next`, with the
same request again at `queryAt`, says whether it is answered from the cache without revalidation (`fresh`).
`time.time()` is patched to the moment of each step. `lifetime` and `age` are hishel's `get_freshness_lifetime`
and `get_age` at `queryAt`, kept for diagnostics.
"""

import json
from importlib import metadata
import random
import sys
import uuid
from email.utils import formatdate
from pathlib import Path
from unittest import mock

from hishel import CacheMiss, CacheOptions, Entry, EntryMeta, FromCache, Headers, IdleClient, Request, Response
from hishel import StoreAndUse
from hishel._core._spec import get_age, get_freshness_lifetime

HISHEL_VERSION = "1.4.0"
SEED = 9111
COUNT = 2500
BASE = 1_700_000_000  # 2023-11-14T22:13:20Z
FIELDS = ["cache-control", "date", "expires", "age", "last-modified", "vary"]
URL = "https://images.example/photo.jpg"
OUTPUT = Path(__file__).resolve().parent.parent / "Tests/Fixtures/freshness/hishel-cases.json"

DIRECTIVES = [
    "max-age=0", "max-age=60", "max-age=3600", "max-age=86400", 'max-age="600"',  # valid
    "max-age=abc", "max-age=-1", "max-age=", "max-age=1.5",  # invalid
    "max-age=60, max-age=3600", "max-age=600, max-age=600",  # duplicate: conflicting, repeated
    "no-cache", 'no-cache="set-cookie"', "no-store", "must-revalidate", "private", "public", "s-maxage=600",
]
EXPIRES_GARBAGE = ["0", "-1", "never", "Thu, 01 Dec 1994", "tomorrow"]
QUERY_DELTAS = [1, 30, 59, 61, 599, 601, 3599, 3601, 86399, 86401, 8 * 86400, 400 * 86400]


def http_date(seconds):
    return formatdate(seconds, usegmt=True)


def generate_case(rng, index):
    received = BASE + rng.randrange(0, 86400)
    headers = {}
    count = rng.choice([0, 1, 1, 2, 2, 3])
    if count:
        headers["cache-control"] = ", ".join(rng.sample(DIRECTIVES, count))
    date_choice = rng.choice(["absent", "now", "now", "past-30", "past-7200"])
    date = {"absent": None, "now": received, "past-30": received - 30, "past-7200": received - 7200}[date_choice]
    if date is not None:
        headers["date"] = http_date(date)
    origin = date if date is not None else received
    expires = rng.choice(["absent", "absent", "future", "past", "garbage"])
    if expires == "future":
        headers["expires"] = http_date(origin + rng.choice([60, 600, 3600, 86400]))
    elif expires == "past":
        headers["expires"] = http_date(origin - rng.choice([1, 3600]))
    elif expires == "garbage":
        headers["expires"] = rng.choice(EXPIRES_GARBAGE)
    age = rng.choice([None, None, "0", "100", "5000", "abc"])
    if age is not None:
        headers["age"] = age
    modified = rng.choice([None, None, 86400, 10 * 86400, 100 * 86400, -3600])
    if modified is not None:
        headers["last-modified"] = http_date(origin - modified)
    vary = rng.choice([None, None, None, None, "Accept", "*"])
    if vary is not None:
        headers["vary"] = vary
    query = received + rng.choice(QUERY_DELTAS)
    return {"id": index, "status": 200, "headers": headers, "receivedAt": received, "queryAt": query}


def hishel_verdict(case):
    options = CacheOptions(shared=False)
    request = Request(method="GET", url=URL, headers=Headers({"accept": "image/webp"}))
    response = Response(status_code=case["status"], headers=Headers(case["headers"]))
    with mock.patch("time.time", return_value=float(case["receivedAt"])):
        state = CacheMiss(request=request, options=options).next(response)
    stored = isinstance(state, StoreAndUse)
    with mock.patch("time.time", return_value=float(case["queryAt"])):
        lifetime = get_freshness_lifetime(response, is_cache_shared=False)
        age = get_age(response)
        fresh = False
        if stored:
            entry = Entry(id=uuid.UUID(int=case["id"]), request=request, meta=EntryMeta(created_at=case["receivedAt"]),
                          response=state.response, cache_key=URL.encode())
            fresh = isinstance(IdleClient(options=options).next(request, [entry]), FromCache)
    return {"stored": stored, "fresh": fresh, "lifetime": lifetime, "age": age}


def main():
    version = metadata.version("hishel")
    if version != HISHEL_VERSION:
        sys.exit(f"hishel {HISHEL_VERSION} is pinned; found {version}")
    rng = random.Random(SEED)
    cases = []
    for index in range(COUNT):
        case = generate_case(rng, index)
        case["hishel"] = hishel_verdict(case)
        cases.append(case)
    rows = [[case["receivedAt"] - BASE, case["queryAt"] - case["receivedAt"]]
            + [case["headers"].get(name) for name in FIELDS]
            + [int(case["hishel"][key]) for key in ("stored", "fresh")] + [case["hishel"]["lifetime"], case["hishel"]["age"]]
            for case in cases]
    document = {"generator": "scripts/freshness-differential.py", "hishel": HISHEL_VERSION, "seed": SEED,
                "base": BASE, "fields": FIELDS, "cases": rows}
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(json.dumps(document, separators=(",", ":")).replace("],[", "],\n[") + "\n")
    stored = sum(case["hishel"]["stored"] for case in cases)
    fresh = sum(case["hishel"]["fresh"] for case in cases)
    print(f"{len(cases)} cases ({stored} stored, {fresh} fresh by hishel) -> {OUTPUT}")


if __name__ == "__main__":
    main()
