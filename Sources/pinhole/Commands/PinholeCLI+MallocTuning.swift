import PinholeVips

extension PinholeCLI {
    /// The glibc `malloc` workload of `command` (the first argument): a batch of thumbnails exits after its
    /// decodes, and the server gives memory back once idle (`IdleMemoryTrimmer`), so their arenas may keep a top
    /// pad; the other commands live on after their decodes (a gallery, a benchmark) and would keep what they padded.
    static func mallocWorkload(command: String?) -> MallocTuning.Workload {
        command == "thumbnail" || command == "serve" ? .throughput : .footprint
    }
}
