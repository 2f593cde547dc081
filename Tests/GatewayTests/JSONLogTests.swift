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
        let answer = try await call(.GET, "http://127.0.0.1:\(port)/api/espacos", headers: ["X-Request-Id": "pedido-json-1"])
        #expect(answer.status == 200)
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
        for object in objects {
            #expect(object["ts"] is String && object["level"] is String && object["message"] is String, "\(object)")
            #expect(object["service"] as? String == "coworkflow" && object["logger"] is String, "\(object)")
        }
        let acesso = objects.first { ($0["message"] as? String)?.hasPrefix("GET /api/espacos 200") == true }
        #expect(acesso?["requestId"] as? String == "pedido-json-1", "\(objects)")
        #expect(acesso?["level"] as? String == "info")
    }
}
