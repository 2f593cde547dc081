public import Domain

/// The deployables that own routes: one per context (``Contexto``), each its own process in the
/// distributed mode (DESIGN §1, §9).
public typealias Deployable = Contexto

extension Contexto {
    /// The services this build has routes for (all of them; `scripts/deploy_checks.py` reads
    /// this list).
    public static let built: [Deployable] = [
        .usuarios, .espacos, .precos, .reservas, .pagamentos, .checkin, .notificacoes, .financeiro, .analytics,
        .assinaturas,
    ]

    /// Where the distributed gateway finds the service: `SERVICE_<NAME>_URL`.
    public var urlVariable: String { "SERVICE_\(rawValue.uppercased())_URL" }
}
