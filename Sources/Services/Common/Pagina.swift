/// A page of a list: `{itens, total, pagina}` (DESIGN §7).
public struct Pagina<Item: Codable & Sendable>: Codable, Sendable {
    public let itens: [Item]
    public let total: Int
    public let pagina: Int

    public init(itens: [Item], total: Int, pagina: Int) {
        self.itens = itens
        self.total = total
        self.pagina = pagina
    }
}
