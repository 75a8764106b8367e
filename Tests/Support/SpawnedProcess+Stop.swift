#if canImport(Glibc)
    import Glibc
#endif

extension SpawnedProcess {
    /// Ends a child that runs while the test goes on (a virtual X server, a terminal): `SIGTERM`, up to `grace` ×
    /// ``LoadFactor/current`` to exit, then `SIGKILL`. Safe to call twice, and on a child that has exited.
    ///
    /// - Returns: the exit status (128 + the signal number), or `nil` when the calling task was cancelled first
    ///   (the child is killed then too).
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Int32? {
        if let status { return status }
        kill(SIGTERM)
        if let status = try? await waitForExit(timeout: grace) { return status }
        // Timed out: waitForExit has sent SIGKILL, and the reaper sees the exit soon.
        return try? await waitForExit(timeout: .seconds(10))
    }
}
