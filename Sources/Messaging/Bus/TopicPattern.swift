/// An AMQP topic binding (`reservas.*`, `*.PagamentoConfirmado`, `#`) and the routing keys it
/// matches: words split on `.`, `*` is exactly one word, `#` is zero or more.
public struct TopicPattern: Sendable, Hashable, CustomStringConvertible {
    public let words: [Substring]
    public var description: String { words.joined(separator: ".") }

    public init(_ pattern: String) {
        words = pattern.split(separator: ".", omittingEmptySubsequences: false)
    }

    public func matches(_ routingKey: String) -> Bool {
        Self.match(words[...], routingKey.split(separator: ".", omittingEmptySubsequences: false)[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ key: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return key.isEmpty }
        if head == "#" {
            let rest = pattern.dropFirst()
            // `#` takes 0…n words.
            var remaining = key
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let word = key.first else { return false }
        return (head == "*" || head == word) && match(pattern.dropFirst(), key.dropFirst())
    }
}
