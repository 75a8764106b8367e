import Foundation
import Pinhole
import PinholeShared

/// nginx (Debian) as a non-daemon child with its own prefix, configuration, pid file and logs, serving one
/// directory on two loopback ports: as is (the origin of the server under test; each request one line in
/// `origin.log`) and through the image_filter module at 512 × 512 (the comparison).
final class NginxServer {
    /// Port of the origin: the files as they are.
    let originPort: Int
    /// Port of `image_filter resize 512 512` over the same files.
    let filterPort: Int
    let child: ServedChild
    private let prefix: URL

    static let executable = "/usr/sbin/nginx"
    /// Where Debian's libnginx-mod-http-image-filter installs the module.
    static let filterModule = "/usr/lib/nginx/modules/ngx_http_image_filter_module.so"

    /// Writes the configuration under `prefix` and starts nginx; returns once both ports answer.
    ///
    /// - Parameters:
    ///   - root: the directory served.
    ///   - probeFile: a file name in `root`, asked for to know nginx is up.
    ///   - workers: worker processes (the core count).
    /// - Throws: ``BenchServeError`` when nginx or the module is missing, or nginx does not answer.
    init(root: URL, probeFile: String, prefix: URL, workers: Int, quality: Int) async throws {
        for path in [Self.executable, Self.filterModule] where !FileManager.default.fileExists(atPath: path) {
            throw BenchServeError("\(path) is missing (apt-get install nginx libnginx-mod-http-image-filter)")
        }
        originPort = try LoopbackPort.free()
        var filterPort = try LoopbackPort.free()
        while filterPort == originPort { filterPort = try LoopbackPort.free() }
        self.filterPort = filterPort
        self.prefix = prefix
        let configuration = Self.configuration(
            prefix: prefix.path, root: root.path, originPort: originPort, filterPort: filterPort, workers: workers,
            quality: quality)
        let configurationFile = prefix.appendingPathComponent("nginx.conf").path
        try await WorkerThreadPool.io.run {
            try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
            try configuration.write(toFile: configurationFile, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: prefix.appendingPathComponent("origin.log").path, contents: nil)
        }
        child = try ServedChild(
            "nginx", executable: Self.executable,
            arguments: ["-p", prefix.path + "/", "-c", configurationFile, "-e", prefix.path + "/error.log"],
            logFile: prefix.appendingPathComponent("stderr.log").path)
        try await child.waitUntilAnswering("http://127.0.0.1:\(originPort)/\(probeFile)")
        try await child.waitUntilAnswering("http://127.0.0.1:\(filterPort)/\(probeFile)")
    }

    /// The configuration: `daemon off`, everything under `prefix`, no access log but the origin's.
    static func configuration(
        prefix: String, root: String, originPort: Int, filterPort: Int, workers: Int, quality: Int
    ) -> String {
        """
        load_module \(filterModule);
        daemon off;
        master_process on;
        worker_processes \(workers);
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log warn;
        events { worker_connections 1024; }
        http {
            types { image/jpeg jpg; }
            default_type application/octet-stream;
            sendfile on;
            keepalive_requests 1000000;
            access_log off;
            client_body_temp_path \(prefix)/body;
            proxy_temp_path \(prefix)/proxy;
            fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi;
            scgi_temp_path \(prefix)/scgi;
            log_format origin '$request_uri';
            server {
                listen 127.0.0.1:\(originPort);
                root \(root);
                access_log \(prefix)/origin.log origin;
            }
            server {
                listen 127.0.0.1:\(filterPort);
                root \(root);
                location / {
                    image_filter resize 512 512;
                    image_filter_buffer 20M;
                    image_filter_jpeg_quality \(quality);
                }
            }
        }

        """
    }

    /// Requests the origin has answered so far (lines of its access log).
    func originRequestCount() async throws -> Int {
        let log = prefix.appendingPathComponent("origin.log").path
        return try await WorkerThreadPool.io.run {
            guard let data = FileManager.default.contents(atPath: log) else { return 0 }
            return data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
    }

    /// CPU and summed peak RSS of the master and its workers now.
    var sample: ProcessSample {
        ProcessSample.read(pids: [child.pid] + ProcessSample.children(of: child.pid))
    }

    func stop() async {
        await child.stop()
    }
}
