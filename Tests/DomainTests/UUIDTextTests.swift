import Domain
import Foundation
import Testing

/// The UUID text helpers say and read what Foundation's `uuidString` and `UUID(uuidString:)` do.
@Suite("UUID text")
struct UUIDTextTests {
    @Test("an id's text is Foundation's, in upper and lower case")
    func formats_as_foundation() {
        var ids = (0..<500).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for id in ids {
            #expect(id.uppercasedString == id.uuidString)
            #expect(id.lowercasedString == id.uuidString.lowercased())
        }
    }

    @Test("canonical text reads as Foundation reads it, in either case")
    func parses_as_foundation() {
        for id in (0..<200).map({ _ in UUID() }) {
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
            #expect(UUID(text: id.uuidString[...]) == id)
        }
        #expect(UUID(text: "e621e1f8-C36C-495a-93fC-0C247A3E6E5F") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    @Test("anything else is no id: also what Foundation's sscanf lets through (a space or a sign inside a pair, text after a NUL)")
    func refuses_the_rest() {
        let id = UUID().uuidString
        let texts = [
            "", "e621e1f8", String(id.dropLast()), id + "0", " " + String(id.dropFirst()), id.replacingOccurrences(of: "-", with: ""),
            "{\(id)}", "e621e1f8c36c-495a-93fc-0c247a3e6e5f-", "e621e1f8-c36c-495a-93fc_0c247a3e6e5f", "g621e1f8-c36c-495a-93fc-0c247a3e6e5f",
            "e621e1f8-c36c-495a-93fc-0c247a3e6e5é", "e621e1f8-c36c-495a-93fc-0c247a3e6e5\u{0}", "e621e1f8+c36c+495a+93fc+0c247a3e6e5f",
            "e621e1f8-c36c-495a-93fc-0c247a3e6e-f", "e621e1f8-c36c-495a-93fc-0c247a3e6e+f", "e621e1f8-c36c-495a-93fc-0c247a3e6e 5",
            "e621e1f8-c36c-495a-93fc-0c247a3e6e5f\u{0}x", " " + String(id.dropFirst()),
        ]
        for text in texts { #expect(UUID(text: text) == nil, "\(text)") }
    }
}
