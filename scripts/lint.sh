#!/usr/bin/env bash
# Formatting held by a tool: `swift format lint --strict` with the repository's .swift-format (4 spaces, 120
# columns), and no line of Swift over 120 characters (swift-format does not break string literals or long words,
# so it does not report them). `swift format format -i -r Sources Tests Package.swift` fixes most of what fails.
# And no `Synchronization.Mutex` in code: ThreadSanitizer cannot see its contended path (a PI-futex system call), so
# threads that take turns under it are reported as racing whenever they contend; `Locked` is the lock
# (Tests/README.md rule 9). A Mutex had come back in UnstoredDownloads and two PinholeTests fakes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Package.swift
python3 - <<'PY'
import re, subprocess, sys
files = subprocess.run(["git", "ls-files", "*.swift"], capture_output=True, text=True, check=True).stdout.split()
texts = {path: open(path, encoding="utf-8").read() for path in files}
long = [f"{path}:{number}: {len(line)} characters" for path, text in texts.items()
        for number, line in enumerate(text.split("\n"), 1) if len(line) > 120]
print("\n".join(long) or "no Swift line over 120 characters")
def code_only(text):
    """`text` with its comments and string literals blanked (newlines kept, so line numbers hold)."""
    blank = lambda match: re.sub(r"[^\n]", " ", match.group(0))
    text = re.sub(r'"""(?:.|\n)*?"""', blank, text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', blank, text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", blank, text)
    return re.sub(r"//[^\n]*", blank, text)
mutex = re.compile(r"(?<![\w.])Mutex\s*[<(]|\bSynchronization\s*\.\s*Mutex\b")
mutexes = [f"{path}:{number}: Synchronization.Mutex (use Locked: ThreadSanitizer cannot see a Mutex)"
           for path, text in texts.items()
           for number, line in enumerate(code_only(text).split("\n"), 1)
           if mutex.search(line)]
print("\n".join(mutexes) or "no Synchronization.Mutex")
sys.exit(1 if long or mutexes else 0)
PY
