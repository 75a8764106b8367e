#!/usr/bin/env python3
"""Prints, in at most about 25 lines, why a test run failed: the issues its tests recorded (from Swift Testing's
event stream) and the sanitizer reports its processes wrote (ThreadSanitizer / AddressSanitizer `log_path` files).

    scripts/failure-digest.py EVENTS.jsonl [REPORT_FILE ...]

scripts/run-tests.sh and scripts/sanitize-tests.sh print it last when a run fails, because a CI log is often read
from its tail only: the lines that say which test failed, and where a race or a leak was, must be the last ones.
"""
import json
import re
import subprocess
import sys

MAX_ISSUES = 8
MAX_REPORTS = 4


def issues(path):
    found = []
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return found
    for line in lines:
        if '"issueRecorded"' not in line:
            continue
        try:
            payload = json.loads(line)["payload"]
        except (ValueError, KeyError):
            continue
        test = payload.get("testID", "?").split("/")
        name = "/".join(test[:2]) if len(test) > 1 else test[0]
        location = payload.get("issue", {}).get("sourceLocation", {})
        where = f'{location.get("fileID", "?")}:{location.get("line", "?")}'
        text = " ".join(m.get("text", "") for m in payload.get("messages", []))
        found.append(f"  {name} at {where}: {text[:300]}")
    return found


def demangled(symbol):
    """`symbol` as `swift demangle --simplified` reads it; the symbol itself when that cannot run."""
    try:
        result = subprocess.run(["swift", "demangle", "--simplified", "--compact", symbol],
                                capture_output=True, text=True, timeout=20)
        return result.stdout.strip() or symbol
    except (OSError, subprocess.SubprocessError):
        return symbol


def reports(paths):
    """Each report's kind (the SUMMARY line) and its first frames inside the project."""
    found = []
    for path in paths:
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        for block in re.split(r"(?m)^={10,}\s*$", text):
            summary = re.search(r"(?m)^SUMMARY: (.*)$", block)
            if not summary:
                continue
            # `#0 SYMBOL FILE[:LINE[:COLUMN]] (module+0x...)`: the project's own frames, first three, demangled.
            frames = [(symbol, location) for symbol, location in re.findall(r"(?m)^\s+#\d+ (\S+) (\S+) \(", block)
                      if "/Sources/" in location or "/Tests/" in location][:3]
            ours = [f"{demangled(symbol)[:90]} at {re.sub(r'^.*?/(Sources|Tests)/', '', location)}"
                    for symbol, location in frames]
            kind = re.sub(r"\$s\S+", lambda match: demangled(match.group(0)), summary.group(1))
            found.append(f"  {kind[:200]}" + "".join(f"\n      {frame}" for frame in ours))
    return found


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    recorded = issues(sys.argv[1])
    reported = reports(sys.argv[2:])
    print(f"==== why it failed: {len(recorded)} recorded issue(s), {len(reported)} sanitizer report(s)")
    for line in recorded[:MAX_ISSUES]:
        print(line)
    if len(recorded) > MAX_ISSUES:
        print(f"  ... and {len(recorded) - MAX_ISSUES} more issue(s)")
    for line in reported[:MAX_REPORTS]:
        print(line)
    if len(reported) > MAX_REPORTS:
        print(f"  ... and {len(reported) - MAX_REPORTS} more report(s) (printed in full above)")
    if not recorded and not reported:
        print("  no test recorded an issue and no sanitizer wrote a report: see the exit status and output above")
    return 0


if __name__ == "__main__":
    sys.exit(main())
