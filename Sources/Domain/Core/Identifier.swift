public import Foundation

/// A UUID tagged with the type it identifies, so that `Reserva.ID` is not an `Espaco.ID`.
public struct Identifier<Tag>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UUID

    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses the canonical textual form; nil for anything that is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUID(text: text) else { return nil }
        self.rawValue = uuid
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Lower-case canonical form, as stored in stream names and JSON.
    public var description: String { rawValue.lowercasedString }
}
