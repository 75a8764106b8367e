import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// `deploy/` against the server's flags: scripts/check-manifests.py (Debian's python3 with PyYAML, from
/// scripts/install-deps.sh) parses the Kubernetes manifests and checks the probes, limits and drain against
/// ServeCommand.swift and ServerConfiguration.swift, and Docs/Cluster.md against the files;
/// scripts/check-manifest-schema.py validates each manifest with the Kubernetes Python client's models.
@Suite(.timeLimit(scaledMinutes: 1))
struct DeploymentManifestTests {
    static let python = "/usr/bin/python3"
    static let checker = PinholeExecutable.repositoryRoot.appendingPathComponent("scripts/check-manifests.py").path
    static let deploy = PinholeExecutable.repositoryRoot.appendingPathComponent("deploy")
    static let schemaChecker = PinholeExecutable.repositoryRoot.appendingPathComponent(
        "scripts/check-manifest-schema.py"
    ).path

    @Test func theManifestsMatchTheServersFlagsAndTheDocs() async throws {
        // Given the repository's manifests, nginx template and Docs/Cluster.md
        // When the checker reads them
        let result = try await SpawnedProcess.run([Self.python, Self.checker])
        // Then every check passes
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok: "), "\(result.stdout)")
    }

    @Test func theManifestsAreValidKubernetesObjects() async throws {
        // Given the repository's manifests and the Kubernetes Python client's models (scripts/bench-venv.sh)
        let venvPython = try await Self.venvPython()
        // When the schema checker validates them
        let result = try await SpawnedProcess.run([venvPython, Self.schemaChecker])
        // Then every document is a valid object of its apiVersion and kind
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok: 5 documents"), "\(result.stdout)")
    }

    @Test func aMisspelledFieldAndAStringForAnIntegerFailTheSchemaCheck() async throws {
        // Given a copy of deploy/ whose container has `readynessProbe` and its port as the string "8080"
        let temporary = try TemporaryDirectory(prefix: "deploy")
        defer { temporary.remove() }
        let copy = try await Self.copyOfDeploy(
            in: temporary,
            replacing: ["readinessProbe:": "readynessProbe:", "containerPort: 8080": "containerPort: \"8080\""])
        // When the schema checker validates the copy
        let result = try await SpawnedProcess.run([
            try await Self.venvPython(), Self.schemaChecker, "--deploy", copy.path,
        ])
        // Then it fails and names both fields
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("containers.0.readynessProbe: Extra inputs are not permitted"), "\(result.stdout)")
        #expect(result.stdout.contains("ports.0.containerPort: Input should be a valid integer"), "\(result.stdout)")
    }

    /// A copy of deploy/ in `temporary` whose deployment.yaml has each key of `replacing` (which it must contain)
    /// replaced by its value.
    static func copyOfDeploy(in temporary: TemporaryDirectory, replacing: [String: String]) async throws -> URL {
        let copy = temporary.fileURL("deploy")
        try await onOwnThread { try FileManager.default.copyItem(at: Self.deploy, to: copy) }
        let manifest = copy.appendingPathComponent("kubernetes/deployment.yaml").path
        var text = try await readText(atPath: manifest)
        for (old, new) in replacing {
            try #require(text.contains(old), "deployment.yaml has no \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try await writeData(Data(text.utf8), toPath: manifest)
        return copy
    }

    /// The python3 of scripts/bench-venv.sh (which creates the venv when it is absent).
    static func venvPython() async throws -> String {
        let script = PinholeExecutable.repositoryRoot.appendingPathComponent("scripts/bench-venv.sh").path
        let result = try await SpawnedProcess.run(["/bin/sh", script])
        try #require(result.status == 0, "scripts/bench-venv.sh failed: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aReadinessProbeOnAnotherPortThanListenFailsTheCheck() async throws {
        // Given a copy of deploy/ whose readiness probe asks for port 8081 while the server listens on 8080
        let temporary = try TemporaryDirectory(prefix: "deploy")
        defer { temporary.remove() }
        let probe = "readinessProbe:\n            httpGet: {path: /health, port: "
        let copy = try await Self.copyOfDeploy(in: temporary, replacing: [probe + "8080}": probe + "8081}"])
        // When the checker reads the copy
        let result = try await SpawnedProcess.run([Self.python, Self.checker, "--deploy", copy.path])
        // Then it fails and names the probe and the port
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("readinessProbe: port 8081 is not the --listen port 8080"), "\(result.stdout)")
    }
}
