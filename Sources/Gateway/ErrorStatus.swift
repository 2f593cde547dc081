import HTTPTypes
public import Services

/// The one table that turns a service's failure into an HTTP status (STYLE: only the edge
/// knows HTTP). Services, projections and the domain speak of ``ServiceError/Kind``s.
extension ServiceError.Kind {
    public var status: Int {
        switch self {
        case .requisicaoInvalida: 400
        case .naoAutenticado: 401
        case .proibido: 403
        case .naoEncontrado: 404
        case .conflito: 409
        case .invalido: 422
        case .bloqueado: 423
        case .limiteExcedido: 429
        case .interno: 500
        case .indisponivel: 503
        }
    }
}

extension ServiceError {
    /// The HTTP status the gateway answers this failure with.
    public var status: Int { kind.status }
}
