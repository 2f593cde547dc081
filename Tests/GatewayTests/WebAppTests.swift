import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The web app's files in the all-in-one mode")
struct WebAppTests {
    @Test("files are served outside the API, app paths get index.html, a missing file is a JSON 404, API paths never reach the folder")
    func serves_the_folder() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coworkflow-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("js"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("<h1>CoworkFlow</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("export const x = 1".utf8).write(to: root.appendingPathComponent("js/app.js"))
        // A file named like an API route must not shadow it.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data("shadow".utf8).write(to: root.appendingPathComponent("api/espacos"))

        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.test(webRoot: root.path) { client in
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.status == .ok)
            #expect(String(buffer: home.body) == "<h1>CoworkFlow</h1>")
            let page = try await client.execute(uri: "/reservas/minhas", method: .get)
            #expect(String(buffer: page.body) == "<h1>CoworkFlow</h1>")
            let script = try await client.execute(uri: "/js/app.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.contains("javascript") == true)
            let missing = try await client.execute(uri: "/js/nada.js", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("\"erro\""))
            let api = try await client.execute(uri: "/api/espacos", method: .get)
            #expect(api.status == .ok)
            #expect(String(buffer: api.body).contains("\"itens\""))
            #expect(try await client.execute(uri: "/api/nada", method: .get).status == .notFound)
        }
    }
}
