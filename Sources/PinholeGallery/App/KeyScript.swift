import Foundation

/// Keys to replay instead of (or before) typing them: `"wait:2000,down:40,up:40,quit"`.
///
/// Steps, separated by commas:
/// - a key name, optionally `:N` to press it N times and `/MS` to press it every MS milliseconds instead of
///   every frame: `up`/`k`, `down`/`j`, `left`/`h`, `right`/`l`, `pgup`, `pgdn`, `home`, `end`, `enter`/`open`
///   (full view), `esc`/`back`, `g`/`grid` (switch list/grid), `f` (favourite), `r` (retry), `q`/`quit`
///   (`pgdn:28/300` pages down 28 times, 300 ms apart);
/// - `wait:MS`: do nothing for MS milliseconds;
/// - `ready` or `ready:MS`: wait until the feed has loaded (or failed) and every visible thumbnail (or the full
///   view's photo) is drawn or failed, at most MS milliseconds (30,000 by default).
///
/// The player presses at most one key per frame (60 keys per second at 60 Hz).
public struct KeyScript: Sendable, Equatable {
    /// One step.
    public enum Step: Sendable, Equatable {
        /// `count` presses, `intervalMilliseconds` apart (0: one per frame).
        case key(Key, count: Int, intervalMilliseconds: Int = 0)
        case wait(milliseconds: Int)
        case ready(timeoutMilliseconds: Int)
    }

    /// Why a script text is not valid.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The steps in order.
    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    private static let names: [String: Key] = [
        "up": .up, "k": .up, "down": .down, "j": .down, "left": .left, "h": .left, "right": .right, "l": .right,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "home": .home, "end": .end,
        "enter": .open, "open": .open, "esc": .back, "back": .back, "g": .toggleLayout, "grid": .toggleLayout,
        "layout": .toggleLayout, "f": .favourite, "fav": .favourite, "favourite": .favourite, "r": .retry,
        "retry": .retry, "q": .quit, "quit": .quit,
    ]

    /// Parses `"wait:2000,down:40,up:40,quit"`.
    ///
    /// - Throws: ``ParseError`` for an unknown step or a count that is not a whole number ≥ 0.
    public static func parse(_ text: String) throws(ParseError) -> KeyScript {
        var steps: [Step] = []
        for token in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard !token.isEmpty else { continue }
            let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
            var number: Int?
            var interval = 0
            if parts.count == 2 {
                let pieces = parts[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                guard let value = Int(pieces[0]), value >= 0 else {
                    throw ParseError(message: "'\(token)': '\(parts[1])' is not a whole number ≥ 0")
                }
                number = value
                if pieces.count == 2 {
                    guard let milliseconds = Int(pieces[1]), milliseconds >= 0, parts[0] != "wait", parts[0] != "ready"
                    else { throw ParseError(message: "'\(token)': '/\(pieces[1])' is not an interval in milliseconds") }
                    interval = milliseconds
                }
            }
            switch parts[0] {
            case "wait":
                guard let number else { throw ParseError(message: "'wait' needs milliseconds, e.g. wait:500") }
                steps.append(.wait(milliseconds: number))
            case "ready":
                steps.append(.ready(timeoutMilliseconds: number ?? 30_000))
            default:
                guard let key = names[parts[0]] else {
                    throw ParseError(
                        message: "unknown script step '\(parts[0])' "
                            + "(keys: up down left right pgup pgdn home end enter esc g f r q)")
                }
                steps.append(.key(key, count: number ?? 1, intervalMilliseconds: interval))
            }
        }
        return KeyScript(steps: steps)
    }
}

/// Plays a ``KeyScript`` against a clock, one key per call at most.
public struct KeyScriptPlayer: Sendable {
    private var steps: [KeyScript.Step]
    private var index = 0
    private var deadline: ContinuousClock.Instant?

    public init(_ script: KeyScript) {
        self.steps = script.steps
    }

    /// `true` once every step has been played.
    public var isFinished: Bool { index >= steps.count }

    /// The key to press now, or `nil` while waiting (or when finished).
    ///
    /// - Parameters:
    ///   - now: the current time.
    ///   - isSettled: whether the screen is ready (for `ready` steps).
    public mutating func next(now: ContinuousClock.Instant, isSettled: Bool) -> Key? {
        while index < steps.count {
            switch steps[index] {
            case .key(let key, let count, let interval):
                guard count > 0 else {
                    index += 1
                    continue
                }
                if let deadline, now < deadline { return nil }
                deadline = interval > 0 && count > 1 ? now + .milliseconds(interval) : nil
                steps[index] = .key(key, count: count - 1, intervalMilliseconds: interval)
                if count == 1 { index += 1 }
                return key
            case .wait(let milliseconds):
                let end = deadline ?? now + .milliseconds(milliseconds)
                guard now >= end else {
                    deadline = end
                    return nil
                }
                deadline = nil
                index += 1
            case .ready(let timeout):
                let end = deadline ?? now + .milliseconds(timeout)
                guard isSettled || now >= end else {
                    deadline = end
                    return nil
                }
                deadline = nil
                index += 1
            }
        }
        return nil
    }
}
