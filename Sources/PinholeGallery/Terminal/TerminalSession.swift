import Glibc
import Pinhole
import PinholeShared

/// The terminal's mode while the gallery runs, and its restoration.
///
/// ``enter(rawInput:alternateScreen:)`` saves the termios settings of standard input, turns off canonical mode
/// and echo (signals stay on, so Ctrl-C arrives as `SIGINT`), switches to the alternate screen and hides the
/// cursor. ``restore()`` undoes all of it, once; it also runs at `exit` and, as far as async-signal-safe calls
/// allow, when the process crashes (`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGFPE`, `SIGABRT`, `SIGTRAP`).
///
/// Safe from any thread.
public enum TerminalSession {
    private struct Saved {
        var termios: termios?
        var alternateScreen: Bool
    }

    private static let saved = Locked<Saved?>(nil)
    /// Leaves the alternate screen, shows the cursor and resets colours.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"

    /// Enters raw input mode (when `rawInput`) and the alternate screen (when `alternateScreen`).
    /// No effect when already entered.
    public static func enter(rawInput: Bool, alternateScreen: Bool) {
        let entered = saved.withLock { saved -> Bool in
            guard saved == nil else { return false }
            saved = Saved(termios: nil, alternateScreen: alternateScreen)
            return true
        }
        guard entered else { return }
        if rawInput {
            var original = termios()
            if tcgetattr(STDIN_FILENO, &original) == 0 {
                saved.withLock { $0?.termios = original }
                CrashRestore.arm(termios: original, alternateScreen: alternateScreen)
                var raw = original
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
                raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
                withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
                _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
            }
        } else {
            CrashRestore.arm(termios: nil, alternateScreen: alternateScreen)
        }
        if alternateScreen { write(enterSequence) }
        atexit { TerminalSession.restore() }
    }

    /// Restores what ``enter(rawInput:alternateScreen:)`` changed; idempotent.
    public static func restore() {
        guard
            let state = saved.withLock({ saved -> Saved? in
                defer { saved = nil }
                return saved
            })
        else { return }
        if state.alternateScreen { write(restoreSequence) }
        if var original = state.termios { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        CrashRestore.disarm()
    }

    /// The size of the terminal on standard output (else standard input), from `TIOCGWINSZ`; `nil` when neither
    /// is a terminal.
    public static func size() -> TerminalSize? {
        for descriptor in [STDOUT_FILENO, STDIN_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
                return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
            }
        }
        return nil
    }

    /// The terminal's text area in pixels from the `ws_xpixel`/`ws_ypixel` fields of `TIOCGWINSZ` (standard
    /// output, else standard input); `nil` when neither is a terminal or the terminal leaves them 0.
    public static func windowPixels() -> (width: Int, height: Int)? {
        for descriptor in [STDOUT_FILENO, STDIN_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_xpixel > 0, size.ws_ypixel > 0 {
                return (Int(size.ws_xpixel), Int(size.ws_ypixel))
            }
        }
        return nil
    }

    /// Writes `text` to standard output, all of it (retrying short writes and `EINTR`).
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// The crash path of ``TerminalSession``: signal handlers that may only call async-signal-safe functions, so
/// their state lives in plain globals.
enum CrashRestore {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    static func arm(termios original: termios?, alternateScreen: Bool) {
        crashTermios.pointee = original ?? termios()
        crashHasTermios = original != nil
        crashAlternateScreen = alternateScreen
        crashArmed = true
        for signal in signals { _ = Glibc.signal(signal, crashHandler) }
    }

    static func disarm() {
        crashArmed = false
        for signal in signals { _ = Glibc.signal(signal, SIG_DFL) }
    }
}

// Invariant for the four globals below (the termios block and three flags): written only by `CrashRestore.arm`/`disarm`
// on one thread before the handlers are installed (arm) or after the UI ended (disarm); the handler only reads them. A
// crash racing with `disarm` at worst writes the restore sequence twice, which is harmless.
// The saved termios lives in a heap block allocated once (never freed) rather than in a global struct:
// AddressSanitizer reported the 60-byte copy into a global `termios` as a global-buffer-overflow, which crashed
// the ASan build of `pinhole gallery` at start.
nonisolated(unsafe) private let crashTermios: UnsafeMutablePointer<termios> = {
    let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    pointer.initialize(to: termios())
    return pointer
}()
nonisolated(unsafe) private var crashHasTermios = false
nonisolated(unsafe) private var crashAlternateScreen = false
nonisolated(unsafe) private var crashArmed = false

private func crashHandler(_ signal: Int32) {
    if crashArmed {
        if crashAlternateScreen {
            let sequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
            _ = Glibc.write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
        }
        if crashHasTermios { _ = tcsetattr(STDIN_FILENO, TCSANOW, crashTermios) }
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}
