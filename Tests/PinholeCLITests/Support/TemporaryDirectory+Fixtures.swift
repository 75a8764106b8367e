import Foundation
import PinholeTestFakes

extension TemporaryDirectory {
    /// Copies the failure-corpus fixture `name` (Tests/Fixtures/cases/inputs) to `relative`.
    func copyFixture(_ name: String, to relative: String? = nil) throws {
        try write(Data(contentsOf: Fixtures.input(name)), to: relative ?? name)
    }
}

/// Paths of the test fixtures, located from this file.
enum Fixtures {
    /// The repository root (three levels above this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of the failure corpus (Tests/Fixtures/cases/inputs).
    static func input(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/cases/inputs/\(name)")
    }
}
