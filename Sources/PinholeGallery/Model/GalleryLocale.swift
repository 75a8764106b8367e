public import Foundation

/// The user's locale for dates, taken from the POSIX environment, and the date style the gallery uses.
public enum GalleryLocale {
    /// The locale named by `LC_ALL`, else `LC_TIME`, else `LANG` (the first one set and not empty), as POSIX
    /// does. `de_DE.UTF-8` and `de_DE.UTF-8@euro` become `Locale(identifier: "de_DE")`; `C`, `POSIX` or none
    /// at all give `en_US_POSIX`.
    ///
    /// - Parameter environment: the process environment (`ProcessInfo.processInfo.environment` by default).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Locale
    {
        let value = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let value, let identifier = identifier(fromPOSIX: value) else {
            return Locale(identifier: "en_US_POSIX")
        }
        return Locale(identifier: identifier)
    }

    /// `de_DE.UTF-8@euro` → `de_DE`; `nil` for `C`, `POSIX` and empty names.
    public static func identifier(fromPOSIX value: String) -> String? {
        let name = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? value
        let bare = name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? name
        guard !bare.isEmpty, bare != "C", bare != "POSIX" else { return nil }
        return bare
    }

    /// `Date.FormatStyle(date: .abbreviated, time: .omitted)` in `locale` and `timeZone`
    /// ("Mar 4, 2026" in en_US, "4. März 2026" in de_DE).
    public static func dateStyle(locale: Locale, timeZone: TimeZone = .current) -> Date.FormatStyle {
        Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, timeZone: timeZone)
    }
}
