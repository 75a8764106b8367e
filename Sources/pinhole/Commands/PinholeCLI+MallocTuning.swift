import PinholeVips

extension PinholeCLI {
    /// The glibc `malloc` workload of `command` (the first argument): a batch of thumbnails exits after its
    /// decodes, so its arenas may keep a top pad; every other command lives on after them (a gallery, a server, a
    /// benchmark) and would keep what it padded. The server was measured both ways: the pad saved 18 % of the CPU
    /// of a cold answer but took a 10-minute soak's peak RSS from 266 to 353 MB, past its budget + 64 MB
    /// (BENCHMARKS.md, "the server's arenas padded").
    static func mallocWorkload(command: String?) -> MallocTuning.Workload {
        command == "thumbnail" ? .throughput : .footprint
    }
}
