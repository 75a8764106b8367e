public import Pinhole

extension HTTPDataLoader {
    /// A loader for untrusted sources: every address it connects to passes the restriction's check (after this
    /// loader's own ``Configuration/connectionPolicy``), and its byte limit is clamped to the restriction's.
    /// The new loader has its own thread and connections.
    public func restricted(by restriction: SourceRestriction) -> any DataLoading {
        var settings = configuration
        let previous = settings.connectionPolicy
        let check = restriction.checkConnection
        settings.connectionPolicy = { address, url in
            try previous?(address, url)
            try check(address, url)
        }
        settings.maxResponseBytes = min(settings.maxResponseBytes, restriction.maxBytes)
        return HTTPDataLoader(configuration: settings)
    }
}
