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


def issue_line(line):
    """`  TEST at FILE:LINE: MESSAGES` for an `issueRecorded` event that is not a known issue; `None` for any other
    line, whatever its shape (the digest must never fail where the run it explains did)."""
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        return None
    payload = event.get("payload") if isinstance(event, dict) else None
    if not isinstance(payload, dict) or payload.get("kind") != "issueRecorded":
        return None
    issue = payload.get("issue") if isinstance(payload.get("issue"), dict) else {}
    if issue.get("isKnown") is True:
        return None
    test = str(payload.get("testID", "?")).split("/")
    name = "/".join(test[:2]) if len(test) > 1 else test[0]
    location = issue.get("sourceLocation") if isinstance(issue.get("sourceLocation"), dict) else {}
    messages = payload.get("messages") if isinstance(payload.get("messages"), list) else []
    text = " ".join(str(m.get("text", "")) for m in messages if isinstance(m, dict))
    return f'  {name} at {location.get("fileID", "?")}:{location.get("line", "?")}: {text[:300]}'


def issues(path):
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return []
    return [found for found in map(issue_line, lines) if found is not None]


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
            # The project's own frames, first three, demangled. ThreadSanitizer writes `#0 SYMBOL FILE:LINE (module+0x…)`,
            # AddressSanitizer `#0 0xADDRESS in SYMBOL FILE:LINE:COLUMN`.
            frames = [(symbol, location) for symbol, location in
                      re.findall(r"(?m)^\s+#\d+ (?:0x[0-9a-f]+ in )?(\S+) (\S+)", block)
                      if "/Sources/" in location or "/Tests/" in location][:3]
            ours = [f"{demangled(symbol)[:90]} at {re.sub(r'^.*?/(Sources|Tests)/', '', location)}"
                    for symbol, location in frames]
            kind = re.sub(r"\$s\S+", lambda match: demangled(match.group(0)), summary.group(1))
            found.append(f"  {kind[:200]}" + "".join(f"\n      {frame}" for frame in ours))
    return found


def main():
    sys.stdout.reconfigure(errors="backslashreplace")
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
