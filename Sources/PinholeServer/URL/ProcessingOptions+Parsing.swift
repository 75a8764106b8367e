import Pinhole

extension ProcessingOptions {
    /// Applies one `name:arg1:arg2` segment.
    mutating func apply(_ segment: Substring) throws(ProcessingURLError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let arguments = Array(parts.dropFirst())
        switch name {
        case "resize", "rs":
            try expect(arguments, atMost: 5, for: name)
            if let type = arguments.first, !type.isEmpty { resizingType = try Self.resizingType(type) }
            try applySize(Array(arguments.dropFirst()), for: name)
        case "size", "s":
            try expect(arguments, atMost: 4, for: name)
            try applySize(arguments, for: name)
        case "resizing_type", "rt":
            try expect(arguments, exactly: 1, for: name)
            resizingType = try Self.resizingType(arguments[0])
        case "width", "w":
            try expect(arguments, exactly: 1, for: name)
            width = try Self.side(arguments[0], for: name)
        case "height", "h":
            try expect(arguments, exactly: 1, for: name)
            height = try Self.side(arguments[0], for: name)
        case "enlarge", "el":
            try expect(arguments, exactly: 1, for: name)
            enlarge = try Self.bool(arguments[0], for: name)
        case "extend", "ex":
            try expect(arguments, atMost: 3, for: name)
            try Self.refuseExtend(arguments.first ?? "", for: name)
        case "gravity", "g":
            try expect(arguments, atMost: 3, for: name)
            gravity = try Self.gravity(arguments)
        case "quality", "q":
            try expect(arguments, exactly: 1, for: name)
            guard let value = Int(arguments[0]), (0...100).contains(value) else {
                throw ProcessingURLError("invalid_option", "\(name) must be 0…100, not '\(arguments[0])'")
            }
            quality = value == 0 ? nil : value
        case "format", "f", "ext":
            try expect(arguments, exactly: 1, for: name)
            guard let format = OutputFormat(extension: arguments[0]) else {
                throw ProcessingURLError("unsupported_format", "unknown output format '\(arguments[0])'")
            }
            self.format = format
        case "dpr":
            try expect(arguments, exactly: 1, for: name)
            guard let value = Double(arguments[0]), value > 0, value <= 8 else {
                throw ProcessingURLError("invalid_option", "dpr must be > 0 and ≤ 8, not '\(arguments[0])'")
            }
            dpr = value
        case "animated", "an":
            try expect(arguments, exactly: 1, for: name)
            animated = try Self.bool(arguments[0], for: name)
        case "disable_animation", "da":
            try expect(arguments, exactly: 1, for: name)
            animated = try !Self.bool(arguments[0], for: name)
        case "cachebuster", "cb":
            cacheBuster = arguments.joined(separator: ":")
        default:
            throw ProcessingURLError("unknown_option", "unknown processing option '\(name)'")
        }
        guard (Double(max(width, height)) * dpr).rounded() <= Double(Self.maxSide) else {
            throw ProcessingURLError("invalid_option", "the box is larger than \(Self.maxSide) pixels a side")
        }
    }

    /// width:height:enlarge:extend, each may be empty (unchanged).
    private mutating func applySize(_ arguments: [String], for name: String) throws(ProcessingURLError) {
        if arguments.count > 0, !arguments[0].isEmpty { width = try Self.side(arguments[0], for: name) }
        if arguments.count > 1, !arguments[1].isEmpty { height = try Self.side(arguments[1], for: name) }
        if arguments.count > 2, !arguments[2].isEmpty { enlarge = try Self.bool(arguments[2], for: name) }
        if arguments.count > 3 { try Self.refuseExtend(arguments[3], for: name) }
    }

    private func expect(_ arguments: [String], exactly count: Int, for name: String) throws(ProcessingURLError) {
        guard arguments.count == count else {
            throw ProcessingURLError("invalid_option", "\(name) takes \(count) argument(s), got \(arguments.count)")
        }
    }

    private func expect(_ arguments: [String], atMost count: Int, for name: String) throws(ProcessingURLError) {
        guard !arguments.isEmpty, arguments.count <= count else {
            throw ProcessingURLError("invalid_option", "\(name) takes 1…\(count) arguments, got \(arguments.count)")
        }
    }

    static func resizingType(_ text: String) throws(ProcessingURLError) -> ResizingType {
        if let type = ResizingType(rawValue: text) { return type }
        if text == "force" || text == "auto" {
            throw ProcessingURLError("unsupported_option", "resizing type '\(text)' is not supported")
        }
        throw ProcessingURLError("invalid_option", "unknown resizing type '\(text)'")
    }

    static func side(_ text: String, for name: String) throws(ProcessingURLError) -> Int {
        guard let value = Int(text), value >= 0, value <= maxSide else {
            throw ProcessingURLError("invalid_option", "\(name): '\(text)' is not a size of 0…\(maxSide) pixels")
        }
        return value
    }

    static func bool(_ text: String, for name: String) throws(ProcessingURLError) -> Bool {
        switch text {
        case "1", "t", "true": return true
        case "0", "f", "false", "": return false
        default: throw ProcessingURLError("invalid_option", "\(name): '\(text)' is not a boolean")
        }
    }

    static func refuseExtend(_ text: String, for name: String) throws(ProcessingURLError) {
        guard try !bool(text, for: name) else {
            throw ProcessingURLError("unsupported_option", "\(name): extending the image is not supported")
        }
    }

    /// type[:x:y] with offsets 0 only.
    static func gravity(_ arguments: [String]) throws(ProcessingURLError) -> ThumbnailOptions.Crop {
        for offset in arguments.dropFirst() where !offset.isEmpty && Double(offset) != 0 {
            throw ProcessingURLError("unsupported_option", "gravity offsets are not supported")
        }
        switch arguments[0] {
        case "ce": return .centre
        case "sm": return .attention
        case "no": return .north
        case "so": return .south
        case "ea": return .east
        case "we": return .west
        case "noea": return .northEast
        case "nowe": return .northWest
        case "soea": return .southEast
        case "sowe": return .southWest
        case "fp", "obj", "objw":
            throw ProcessingURLError("unsupported_option", "gravity '\(arguments[0])' is not supported")
        default:
            throw ProcessingURLError("invalid_option", "unknown gravity '\(arguments[0])'")
        }
    }
}
