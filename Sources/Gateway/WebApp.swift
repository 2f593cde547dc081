import Foundation
import HTTPTypes
import Hummingbird

/// The web app (`web/`, plain files) in the all-in-one mode: GET and HEAD outside the API are
/// answered from the folder, and a path that names no file gets `index.html` (the app routes
/// in the browser). API paths never touch the file system.
struct WebAppMiddleware: RouterMiddleware {
    typealias Context = GatewayContext
    let files: FileMiddleware<GatewayContext, LocalFileSystem>

    init(root: String) {
        // Revalidated on every load: there is no build step to fingerprint file names.
        files = FileMiddleware(root, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true)
    }

    static let apiPrefixes = ["/api/", "/saude", "/metrics", "/openapi.json", "/docs"]

    func handle(_ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get || request.method == .head, !Self.apiPrefixes.contains(where: { path == $0 || path.hasPrefix($0) })
        else { return try await next(request, context) }
        do {
            return try await files.handle(request, context: context, next: next)
        } catch let error as HTTPError where error.status == .notFound {
            // A file that is not there (it has an extension) is a 404; anything else is a page
            // of the app.
            guard !(path.split(separator: "/").last ?? "").contains(".") else { throw error }
            var head = request.head
            head.path = "/index.html"
            return try await files.handle(Request(head: head, body: request.body), context: context, next: next)
        }
    }
}
