import EventStore
import HTTPTypes
import Services
import Synchronization

/// Read-your-writes without holding a member's write (ADR 0005, issue 40). A member's command
/// answers as soon as its events are stored, naming what they were and where they went in
/// `Coworkflow-Consistencia` (`ReservaSolicitada=12/345,AgendaOcupada=12/346`); the edge keeps
/// the same in memory for that member (and for the company, under `/api/empresas/{id}`), and
/// the member's next query waits, only if a read model that projects one of those events is
/// still behind, until it has them. The web app sends the header back on its queries, which
/// reaches a gateway replica that did not see the write.
///
/// Commands do not wait for these: they decide from the event log. Operators' and anonymous
/// writes (the catalog, prices, plans, a registration, a provider's notice) still wait for the
/// read models before answering, as before: any caller may read them next, and they are rare.
final class PendingWrites: Sendable {
    static let header = "Coworkflow-Consistencia"
    static let field = HTTPField.Name(header)!
    /// Entries a token may hold (a booking writes three types; a request's own writes a few more).
    static let tokenEntries = 64
    /// Past this many members with writes not read back, entries older than ``forgotten`` go.
    static let sweepAbove = 4_096
    static let forgotten: Duration = .seconds(30)

    private struct Entry {
        var types: [String: GlobalPosition]
        var at: ContinuousClock.Instant
    }
    /// The entries by owner, and the records since the last sweep (a sweep every 256 records
    /// at most, not at each one past the limit).
    private let state = Mutex<(entries: [String: Entry], sinceSweep: Int)>(([:], 0))

    init() {}

    /// Where every member's write is kept too: an operator's query (the reception's day, the
    /// bookings list) waits for what members wrote before it, on this replica.
    static let operadores = "operadores"

    /// Under which names a query waits: an operator's, for every member's writes; anyone
    /// else's, under their ``owners(_:template:path:)``.
    static func readers(_ owners: [String], _ context: GatewayContext) -> [String] {
        context.subject?.papel == "admin" ? [operadores] : owners
    }

    /// Under which names a write is kept for later reads: its owners' and the operators'; none
    /// (it waits before it answers) when it has no owner or someone else reads it next
    /// (``WriteReceipt/shared``).
    static func keepers(_ owners: [String], shared: Bool) -> [String] {
        owners.isEmpty || shared ? [] : owners + [operadores]
    }

    /// Under which names a request's writes are kept and its reads wait: the member's, and a
    /// company's for a route under `/api/empresas/{id}` (its people read what one of them wrote
    /// there: the subscription, the pooled credits). None for an operator or an anonymous
    /// caller, whose writes are waited for before they answer.
    static func owners(_ context: GatewayContext, template: String, path: String) -> [String] {
        guard let subject = context.subject, subject.papel != "admin" else { return [] }
        var owners = ["usuario:\(subject.usuario)"]
        if template.hasPrefix("/api/empresas/{") {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            if segments.count > 3, !segments[3].isEmpty { owners.append("empresa:\(segments[3].lowercased())") }
        }
        return owners
    }

    /// Keeps what was just written (each type at its last position) under each of `owners`.
    func record(_ types: [String: GlobalPosition], for owners: [String]) {
        guard !types.isEmpty, !owners.isEmpty else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            state.sinceSweep += 1
            if state.sinceSweep >= 256, state.entries.count >= Self.sweepAbove {
                state.sinceSweep = 0
                state.entries = state.entries.filter { now - $0.value.at < Self.forgotten }
            }
            for owner in owners {
                var entry = state.entries[owner] ?? Entry(types: [:], at: now)
                entry.types.merge(types, uniquingKeysWith: max)
                entry.at = now
                state.entries[owner] = entry
            }
        }
    }

    /// What a query must see: the writes kept under `owners`, and those the request names.
    func pending(for owners: [String], token: [String: GlobalPosition]?) -> [String: GlobalPosition] {
        var types = token ?? [:]
        guard !owners.isEmpty else { return types }
        state.withLock { state in
            for owner in owners { if let kept = state.entries[owner]?.types { types.merge(kept, uniquingKeysWith: max) } }
        }
        return types
    }

    /// Once a query has waited for `types` (or given up after the wait's limit): the entries of
    /// `owners` they cover go, so that only a later write makes a query wait again.
    func settled(_ types: [String: GlobalPosition], for owners: [String]) {
        guard !owners.isEmpty else { return }
        state.withLock { state in
            for owner in owners {
                guard var entry = state.entries[owner] else { continue }
                entry.types = entry.types.filter { type, position in types[type].map { position > $0 } ?? true }
                state.entries[owner] = entry.types.isEmpty ? nil : entry
            }
        }
    }

    /// The header's value for `types`.
    static func value(_ types: [String: GlobalPosition]) -> String { Forwarder.typesValue(types) }

    /// The header's grammar, as `/openapi.json` declares it: 1 to 64 entries `Tipo=transação/posição`
    /// separated by commas, a type being 1 to 100 visible ASCII characters but `,` and `=`, a
    /// position's two numbers 1 to 18 digits each; or nothing (an empty value is as none: HTTP
    /// clients send one for a header they were given no value for). ``token(_:)`` checks the
    /// same, byte for byte.
    static let pattern =
        "^([!-+\\--<>-~]{1,100}=[0-9]{1,18}/[0-9]{1,18}(,[!-+\\--<>-~]{1,100}=[0-9]{1,18}/[0-9]{1,18}){0,\(tokenEntries - 1)})?$"

    /// The header a request carries, read back; nil without one, or with an empty one. Anything
    /// else but what a write answered (``pattern``) is a 400 naming it.
    static func token(_ value: String?) throws -> [String: GlobalPosition]? {
        guard let value, !value.isEmpty else { return nil }
        guard let types = parse(Array(value.utf8)) else {
            throw ServiceError.requisicaoInvalida(
                "\(header) deve ser o valor que uma escrita devolveu nesse cabeçalho (Tipo=transação/posição, separados por vírgula)",
                detalhes: ["campo": header])
        }
        return types
    }

    /// ``pattern`` over bytes: nil for anything else (a sign, a space, a 19th digit, an empty entry).
    static func parse(_ bytes: [UInt8]) -> [String: GlobalPosition]? {
        var types: [String: GlobalPosition] = [:]
        let entries = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard entries.count <= tokenEntries else { return nil }
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = entry[entry.startIndex..<equals]
            let position = entry[(equals + 1)...]
            guard (1...100).contains(name.count), name.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ",") }),
                let slash = position.firstIndex(of: UInt8(ascii: "/"))
            else { return nil }
            guard let transaction = number(position[position.startIndex..<slash]), let sequence = number(position[(slash + 1)...]) else {
                return nil
            }
            types[String(decoding: name, as: UTF8.self)] = GlobalPosition(transaction: transaction, sequence: sequence)
        }
        return types
    }

    /// 1 to 18 ASCII digits.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard (1...18).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
