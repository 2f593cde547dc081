/// Every read model, in the order a rebuild runs them.
public enum ReadModels {
    public static let all: [Projection] = [
        CatalogoReadModel.projection, ReservasReadModel.projection, ReservasReadModel.agendas, UsuariosReadModel.projection,
        NotificacoesReadModel.projection, CheckinReadModel.projection, FinanceiroReadModel.projection, AnalyticsReadModel.projection,
        TrilhasReadModel.projection, CreditosReadModel.projection, AssinaturasReadModel.projection, AnalyticsAssinaturasReadModel.projection,
        EmpresasReadModel.projection, PacotesReadModel.projection, PagamentosReadModel.projection, VisitasReadModel.projection,
        EncomendasReadModel.projection, ChamadosReadModel.projection, EncontrosReadModel.projection, ToursReadModel.projection,
    ]

    public static func named(_ name: String) -> Projection? { all.first { $0.name == name } }
}
