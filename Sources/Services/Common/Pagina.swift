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

    /// Page `pagina` (from 1) of `todos`, 50 a page: for lists filtered in memory.
    public init(de todos: [Item], pagina: Int) {
        let inicio = min(max(pagina - 1, 0) * 50, todos.count)
        self.init(itens: Array(todos[inicio..<min(inicio + 50, todos.count)]), total: todos.count, pagina: pagina)
    }
}
