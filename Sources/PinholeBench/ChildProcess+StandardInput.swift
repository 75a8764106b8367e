import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// Writes `lines` (each followed by a newline) into `pipe` on a thread of its own, 64 KiB at a time, then
    /// closes the write end (the child sees the end of its input). The writes block while the pipe is full,
    /// so the child is fed only as fast as it reads: the list is streamed, never handed over whole.
    ///
    /// `SIGPIPE` is ignored in this process from then on, so a child that exits early makes the writes fail
    /// (they stop) instead of killing the benchmark.
    static func feed(_ lines: [String], to pipe: Pipe) {
        signal(SIGPIPE, SIG_IGN)
        let handle = pipe.fileHandleForWriting
        let thread = Thread {
            var chunk = Data()
            chunk.reserveCapacity(70_000)
            for line in lines {
                chunk.append(contentsOf: line.utf8)
                chunk.append(UInt8(ascii: "\n"))
                if chunk.count >= 65_536 {
                    guard (try? handle.write(contentsOf: chunk)) != nil else { break }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { try? handle.write(contentsOf: chunk) }
            try? handle.close()
        }
        thread.name = "pinhole-bench-stdin"
        thread.start()
    }
}
