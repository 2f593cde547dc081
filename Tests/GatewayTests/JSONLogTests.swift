import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

/// `LOG_FORMAT=json` (the ECS tasks' setting): every line `serve` writes to standard error is
/// one JSON object a log store can query; the access log carries the request id a client saw.
@Suite("Logs as JSON lines")
struct JSONLogTests {
    @Test(
        "with LOG_FORMAT=json every log line of serve is a JSON object with ts, level, message, service and logger; a request's line carries its requestId"
    )
    func json_lines() async throws {
        let objects = try await logs { port in
            let answer = try await call(.GET, "http://127.0.0.1:\(port)/api/espacos", headers: ["X-Request-Id": "pedido-json-1"])
            #expect(answer.status == 200)
        }
        for object in objects {
            #expect(object["ts"] is String && object["level"] is String && object["message"] is String, "\(object)")
            #expect(object["service"] as? String == "coworkflow" && object["logger"] is String, "\(object)")
        }
        let acesso = objects.first { ($0["message"] as? String)?.hasPrefix("GET /api/espacos 200") == true }
        #expect(acesso?["requestId"] as? String == "pedido-json-1", "\(objects)")
        #expect(acesso?["level"] as? String == "info")
    }

    @Test(
        "the access log writes a tour's id and an invitation's token, the secrets of links sent by e-mail, as '…', on the public, the team's and the web app's paths; other paths as they are"
    )
    func link_secrets_stay_out_of_the_access_log() async throws {
        let tour = UUID().uuidString.lowercased()
        let convite = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + "Xy_9"
        let objects = try await logs { port in
            let base = "http://127.0.0.1:\(port)"
            _ = try await call(.GET, "\(base)/api/tours/\(tour)")
            _ = try await call(.POST, "\(base)/api/tours/\(tour)/cancelamento", "{}")
            _ = try await call(.POST, "\(base)/api/admin/tours/\(tour)/realizacao", "{}")
            _ = try await call(.GET, "\(base)/api/convites/\(convite)")
            _ = try await call(.GET, "\(base)/tour/\(tour)")
            _ = try await call(.GET, "\(base)/convite/\(convite)")
            _ = try await call(.GET, "\(base)/api/tours/horarios")
            _ = try await call(.GET, "\(base)/api/reservas/\(tour)")
            _ = try await call(.GET, "\(base)/api/tours//\(tour)")  // the router skips the empty segment
        }
        let messages = objects.compactMap { $0["message"] as? String }
        for path in [
            "GET /api/tours/… ", "POST /api/tours/…/cancelamento ", "POST /api/admin/tours/…/realizacao ", "GET /api/convites/… ",
            "GET /tour/… ", "GET /convite/… ", "GET /api/tours/horarios ", "GET /api/reservas/\(tour) ", "GET /api/tours//… ",
        ] {
            #expect(messages.contains { $0.hasPrefix(path) }, "no line for \(path): \(messages)")
        }
        let secrets = messages.filter { $0.contains(convite) || ($0.contains(tour) && !$0.hasPrefix("GET /api/reservas/")) }
        #expect(secrets.isEmpty, "\(secrets)")
    }

    /// Runs `serve` (embedded, `LOG_FORMAT=json`), makes the requests, stops it and answers the
    /// lines it wrote to standard error, each a JSON object.
    private func logs(_ requests: (Int) async throws -> Void) async throws -> [[String: Any]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-jsonlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_FORMAT"] = "json"
        environment["LOG_LEVEL"] = "info"
        let port = try Deployment.freePort()
        let server = Process()
        server.executableURL = Deployment.binary
        server.arguments = ["serve", "--data", directory.path, "--port", String(port), "--web", directory.appendingPathComponent("sem-web").path]
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        server.standardError = stderr
        try server.run()
        defer { if server.isRunning { Foundation.kill(server.processIdentifier, SIGKILL) } }
        for _ in 0..<600 {
            if let answer = try? await call(.GET, "http://127.0.0.1:\(port)/saude"), answer.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await requests(port)
        server.terminate()
        for _ in 0..<200 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)

        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3, "\(text)")
        var objects: [[String: Any]] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            if let object { objects.append(object) }
        }
        return objects
    }
}
