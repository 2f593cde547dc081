/// A stream id `category-id`: everything before the first `-` is the category.
///
/// Stream ids never carry personal data: an e-mail claim stream is named by a keyed hash.
public struct StreamName: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(category: String, id: String) { self.rawValue = "\(category)-\(id)" }

    /// The category: the part before the first `-`, or the whole name when there is none.
    public var category: String {
        guard let dash = rawValue.firstIndex(of: "-") else { return rawValue }
        return String(rawValue[..<dash])
    }

    public var description: String { rawValue }
}
