/// An amount of Brazilian reais in integer centavos. No floating point anywhere.
public struct Money: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let centavos: Int64

    public init(centavos: Int64) { self.centavos = centavos }

    public static let zero = Money(centavos: 0)

    public static func reais(_ value: Int64) -> Money { Money(centavos: value * 100) }

    public static func + (lhs: Money, rhs: Money) -> Money { Money(centavos: lhs.centavos + rhs.centavos) }
    public static func - (lhs: Money, rhs: Money) -> Money { Money(centavos: lhs.centavos - rhs.centavos) }
    public static func * (lhs: Money, factor: Int64) -> Money { Money(centavos: lhs.centavos * factor) }
    public static prefix func - (value: Money) -> Money { Money(centavos: -value.centavos) }
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.centavos < rhs.centavos }

    public var isNegative: Bool { centavos < 0 }

    /// The amount scaled by `basisPoints` / 10,000 (10,000 = 100 %), rounded half away from zero.
    ///
    /// Percentages in prices and fees are basis points so that 12.5 % is exact.
    /// Computed in 128 bits, so no amount and rate can overflow; a result beyond `Int64` is
    /// clamped.
    public func applying(basisPoints: Int64) -> Money {
        let product = Int128(centavos) * Int128(basisPoints)
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 10_000)
        let roundAway = remainder.magnitude * 2 >= 10_000
        return Money(centavos: Int64(clamping: quotient + (roundAway ? product.signum() : 0)))
    }

    /// Splits the amount into `parts` shares that add up to it exactly; earlier shares take
    /// the leftover centavos.
    public func allocated(into parts: Int) -> [Money] {
        guard parts > 0 else { return [] }
        let (share, leftover) = centavos.quotientAndRemainder(dividingBy: Int64(parts))
        return (0..<parts).map { index in
            Money(centavos: share + (Int64(index) < abs(leftover) ? leftover.signum() : 0))
        }
    }

    /// Brazilian notation: `R$ 1.234,56`, `-R$ 0,05`.
    public var description: String {
        let sign = centavos < 0 ? "-" : ""
        let magnitude = centavos.magnitude
        let cents = magnitude % 100
        var integer = String(magnitude / 100)
        var groups: [Substring] = []
        while integer.count > 3 {
            groups.insert(integer.suffix(3), at: 0)
            integer.removeLast(3)
        }
        groups.insert(Substring(integer), at: 0)
        return "\(sign)R$ \(groups.joined(separator: ".")),\(cents < 10 ? "0" : "")\(cents)"
    }

    public init(from decoder: any Decoder) throws {
        centavos = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(centavos)
    }
}
