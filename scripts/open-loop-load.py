#!/usr/bin/env python3
"""Open-loop HTTP load at a constant rate, for `pinhole bench serve --overload`.

    open-loop-load.py --urls FILE --rate R --seconds S [--accept TYPE] [--timeout SECONDS]

Request i of R x S is sent at start + i / R, whatever the earlier requests are doing (no connection pool limit,
so a slow answer never delays the next send), for the i-th line of FILE (the list wraps, and says so). Each
latency is measured from the request's SCHEDULED time, not from when it was sent, so a client that falls behind
counts its own delay against the server (no coordinated omission). Prints one JSON object on stdout:

    {"rate": R, "seconds": S, "scheduled": N, "completed": N, "wrapped": 0, "wallSeconds": ...,
     "maxSendLagMilliseconds": ..., "statuses": {"200": 1234, "503": 56},
     "byClass": {"200": {"count", "p50Milliseconds", "p99Milliseconds", "maxMilliseconds"}, "503": {…},
                 "other": {…}}}

"other" holds every other status and every failed request (timeouts, resets; counted under "error" in
"statuses"). Each URL is sent byte for byte as written (a signed path must not be re-quoted). The client raises
its own priority (nice -10) when allowed, so a server that keeps every core busy delays the sending less; the
JSON says whether it did ("niceRaised"), and "maxSendLagMilliseconds" says how late the latest send was. Needs
aiohttp (scripts/bench-venv.sh installs it).
"""

import argparse
import asyncio
import json
import math
import os
import sys
import time

import aiohttp
import yarl


def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an ascending list, 0 when empty."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary(latencies):
    values = sorted(latencies)
    return {
        "count": len(values),
        "p50Milliseconds": round(percentile(values, 0.50) * 1000, 3),
        "p99Milliseconds": round(percentile(values, 0.99) * 1000, 3),
        "maxMilliseconds": round((values[-1] if values else 0.0) * 1000, 3),
    }


async def one(session, url, scheduled, headers, results):
    try:
        async with session.get(url, headers=headers) as response:
            await response.read()
            status = str(response.status)
    except (aiohttp.ClientError, asyncio.TimeoutError, OSError):
        status = "error"
    results.append((status, time.monotonic() - scheduled))


async def run(arguments):
    with open(arguments.urls, encoding="utf-8") as file:
        urls = [yarl.URL(line.strip(), encoded=True) for line in file if line.strip()]
    if not urls:
        sys.exit("open-loop-load.py: no URL in " + arguments.urls)
    total = int(round(arguments.rate * arguments.seconds))
    headers = {"Accept": arguments.accept} if arguments.accept else {}
    timeout = aiohttp.ClientTimeout(total=arguments.timeout)
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    results = []
    tasks = []
    max_lag = 0.0
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        start = time.monotonic() + 0.05
        for index in range(total):
            scheduled = start + index / arguments.rate
            delay = scheduled - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            max_lag = max(max_lag, time.monotonic() - scheduled)
            url = urls[index % len(urls)]
            tasks.append(asyncio.create_task(one(session, url, scheduled, headers, results)))
        await asyncio.gather(*tasks)
        wall = time.monotonic() - start
    statuses = {}
    classes = {"200": [], "503": [], "other": []}
    for status, latency in results:
        statuses[status] = statuses.get(status, 0) + 1
        classes[status if status in ("200", "503") else "other"].append(latency)
    return {
        "niceRaised": arguments.nice_raised,
        "rate": arguments.rate,
        "seconds": arguments.seconds,
        "scheduled": total,
        "completed": len(results),
        "wrapped": max(0, (total - 1) // len(urls)),
        "wallSeconds": round(wall, 3),
        "maxSendLagMilliseconds": round(max_lag * 1000, 3),
        "statuses": statuses,
        "byClass": {name: summary(values) for name, values in classes.items()},
    }


def main():
    parser = argparse.ArgumentParser(description="Open-loop HTTP load at a constant rate.")
    parser.add_argument("--urls", required=True, help="file of URLs, one a line, asked in order")
    parser.add_argument("--rate", type=float, required=True, help="requests per second")
    parser.add_argument("--seconds", type=float, required=True, help="seconds of sending")
    parser.add_argument("--accept", default=None, help="Accept header of every request")
    parser.add_argument("--timeout", type=float, default=60, help="seconds one request may take (then error)")
    arguments = parser.parse_args()
    if arguments.rate <= 0 or arguments.seconds <= 0:
        sys.exit("open-loop-load.py: --rate and --seconds must be positive")
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -10)
        arguments.nice_raised = True
    except OSError:
        arguments.nice_raised = False
    print(json.dumps(asyncio.run(run(arguments)), sort_keys=True))


if __name__ == "__main__":
    main()
