// Every screen of the app: its path, its title, who may open it and where the menu shows it.
// A new screen is one entry here and one module under views/ exporting `render(ctx)`.
//
// access: 'publico' (anyone), 'visitante' (only when signed out), 'membro' (signed in),
//         'admin' (role admin).
// nav:    'membro' | 'conta' | 'admin' (menu group) — omitted for screens reached by links.
// semAdmin: left out of an operator's menu (which must fit one row at 1280 px; operators see
//         every invoice under Financeiro, and the brand opens the catalog), though the screen
//         still opens for them.
// unread: the menu shows the count of unread notifications beside it.
//
export const ROUTES = [
  // members
  { path: '/', view: () => import('./views/catalogo.js'), title: 'Encontre um espaço', access: 'publico' },
  { path: '/espacos', view: () => import('./views/catalogo.js'), title: 'Encontre um espaço', access: 'publico', nav: 'membro', label: 'Espaços', semAdmin: true },
  { path: '/espacos/:id', view: () => import('./views/espaco.js'), title: 'Disponibilidade e reserva', access: 'publico' },
  { path: '/espacos/:id/semana', view: () => import('./views/espaco-semana.js'), title: 'Semana do espaço', access: 'publico' },
  { path: '/unidades/:id/dia', view: () => import('./views/unidade-dia.js'), title: 'Espaços da unidade no dia', access: 'publico' },
  { path: '/reservas', view: () => import('./views/reservas.js'), title: 'Minhas reservas', access: 'membro', nav: 'membro', label: 'Minhas reservas' },
  { path: '/visitantes', view: () => import('./views/visitantes.js'), title: 'Meus visitantes', access: 'membro', nav: 'membro', label: 'Visitantes', semAdmin: true },
  // reached from the notice on "Minhas reservas" and from each arrival's notification (the
  // member's menu has no room for one more link)
  { path: '/correspondencia', view: () => import('./views/correspondencia.js'), title: 'Minha correspondência', access: 'membro' },
  // the help desk: reached from a line on "Minhas reservas" and from each reply's notification
  // (no room in the menu either)
  { path: '/chamados', view: () => import('./views/chamados.js'), title: 'Meus chamados', access: 'membro' },
  // community events: reached from a line on "Minhas reservas" and from each notice (with it the
  // menu took two rows at 1280 px)
  { path: '/eventos', view: () => import('./views/eventos.js'), title: 'Eventos', access: 'membro' },
  { path: '/creditos', view: () => import('./views/creditos.js'), title: 'Meus créditos', access: 'membro', nav: 'membro', label: 'Meus créditos', semAdmin: true },
  { path: '/plano', view: () => import('./views/plano.js'), title: 'Meu plano', access: 'membro', nav: 'membro', label: 'Meu plano', semAdmin: true },
  { path: '/pacotes', view: () => import('./views/pacotes.js'), title: 'Pacotes de créditos', access: 'membro', nav: 'membro', label: 'Pacotes', semAdmin: true },
  { path: '/reservas/:id/pagamento', view: () => import('./views/pagamento.js'), title: 'Pagamento da reserva', access: 'membro' },
  { path: '/reservas/:id/checkin', view: () => import('./views/checkin.js'), title: 'Check-in', access: 'membro' },
  { path: '/faturas', view: () => import('./views/faturas.js'), title: 'Minhas faturas', access: 'membro', nav: 'conta', label: 'Minhas faturas', semAdmin: true },
  { path: '/faturas/:id/recibo', view: () => import('./views/recibo.js'), title: 'Recibo', access: 'membro' },
  { path: '/notificacoes', view: () => import('./views/notificacoes.js'), title: 'Notificações', access: 'membro', nav: 'conta', label: 'Notificações', unread: true },
  { path: '/empresa/faturas/:id/recibo', view: () => import('./views/recibo.js'), title: 'Recibo', access: 'membro' },
  { path: '/empresa', view: () => import('./views/empresa.js'), title: 'Minha empresa', access: 'membro', nav: 'conta', label: 'Minha empresa', semAdmin: true },
  { path: '/convite/:token', view: () => import('./views/convite.js'), title: 'Convite para uma empresa', access: 'membro' },
  { path: '/meus-dados', view: () => import('./views/meus-dados.js'), title: 'Meus dados', access: 'membro', nav: 'conta', label: 'Meus dados' },
  { path: '/entrar', view: () => import('./views/entrar.js'), title: 'Entrar', access: 'visitante', nav: 'visitante', label: 'Entrar' },
  { path: '/cadastro', view: () => import('./views/cadastro.js'), title: 'Criar conta', access: 'visitante', nav: 'visitante', label: 'Criar conta' },
  // tours: someone who is not a member books a guided visit of a unit, without an account, and
  // keeps the link to it; reached from the login page and the catalog (no menu entry: the
  // member's menu must keep to one row at 1280 px)
  { path: '/tour', view: () => import('./views/tour.js'), title: 'Agende um tour', access: 'publico' },
  { path: '/tour/:id', view: () => import('./views/tour-detalhe.js'), title: 'Seu tour', access: 'publico' },

  // operators
  { path: '/admin', view: () => import('./views/admin/reservas.js'), title: 'Reservas do dia', access: 'admin' },
  { path: '/admin/reservas', view: () => import('./views/admin/reservas.js'), title: 'Reservas do dia', access: 'admin', nav: 'admin', label: 'Reservas do dia' },
  { path: '/admin/unidades', view: () => import('./views/admin/unidades.js'), title: 'Unidades', access: 'admin', nav: 'admin', label: 'Unidades' },
  { path: '/admin/unidades/nova', view: () => import('./views/admin/unidade.js'), title: 'Nova unidade', access: 'admin' },
  { path: '/admin/unidades/:id', view: () => import('./views/admin/unidade.js'), title: 'Editar unidade', access: 'admin' },
  { path: '/admin/espacos', view: () => import('./views/admin/espacos.js'), title: 'Espaços', access: 'admin', nav: 'admin', label: 'Espaços e preços' },
  { path: '/admin/espacos/novo', view: () => import('./views/admin/espaco-dados.js'), title: 'Novo espaço', access: 'admin' },
  { path: '/admin/espacos/:id', view: () => import('./views/admin/espaco-dados.js'), title: 'Dados do espaço', access: 'admin' },
  { path: '/admin/espacos/:id/horario', view: () => import('./views/admin/espaco-horario.js'), title: 'Horário de funcionamento', access: 'admin' },
  { path: '/admin/espacos/:id/bloqueios', view: () => import('./views/admin/espaco-bloqueios.js'), title: 'Bloqueios', access: 'admin' },
  { path: '/admin/espacos/:id/locacao', view: () => import('./views/admin/espaco-locacao.js'), title: 'Locação', access: 'admin' },
  { path: '/admin/espacos/:id/precos', view: () => import('./views/admin/espaco-precos.js'), title: 'Tabela de preços', access: 'admin' },
  // the unit's community events: reached from a line on "Reservas do dia", for the unit shown
  // there (the operator's menu has no room for one more link)
  { path: '/admin/visitas/:id/cracha', view: () => import('./views/admin/cracha.js'), title: 'Crachá de visitante', access: 'admin' },
  { path: '/admin/eventos', view: () => import('./views/admin/eventos.js'), title: 'Eventos', access: 'admin' },
  // the unit's tours (prospects' guided visits) and its tour hours: from a line on "Reservas do
  // dia" too, for the unit and day shown there
  { path: '/admin/tours', view: () => import('./views/admin/tours.js'), title: 'Tours', access: 'admin' },
  { path: '/admin/cupons', view: () => import('./views/admin/cupons.js'), title: 'Cupons', access: 'admin', nav: 'admin', label: 'Cupons' },
  { path: '/admin/planos', view: () => import('./views/admin/planos.js'), title: 'Planos', access: 'admin', nav: 'admin', label: 'Planos' },
  // reached through the tabs of "Planos" (the operator's menu has no room for one more link):
  // Pacotes (bundles of credits), Assinaturas and Empresas (company accounts)
  { path: '/admin/pacotes', view: () => import('./views/admin/pacotes.js'), title: 'Pacotes de créditos', access: 'admin' },
  { path: '/admin/assinaturas', view: () => import('./views/admin/assinaturas.js'), title: 'Assinaturas', access: 'admin' },
  { path: '/admin/assinaturas/:id', view: () => import('./views/admin/assinatura.js'), title: 'Assinatura', access: 'admin' },
  { path: '/admin/empresas', view: () => import('./views/admin/empresas.js'), title: 'Empresas', access: 'admin' },
  { path: '/admin/empresas/:id', view: () => import('./views/admin/empresa.js'), title: 'Empresa', access: 'admin' },
  { path: '/admin/usuarios', view: () => import('./views/admin/usuarios.js'), title: 'Usuários', access: 'admin', nav: 'admin', label: 'Usuários' },
  { path: '/admin/usuarios/:id', view: () => import('./views/admin/usuario.js'), title: 'Conta', access: 'admin' },
  { path: '/admin/financeiro', view: () => import('./views/admin/financeiro.js'), title: 'Financeiro', access: 'admin', nav: 'admin', label: 'Financeiro' },
  { path: '/admin/financeiro/faturas', view: () => import('./views/admin/faturas.js'), title: 'Faturas', access: 'admin' },
  { path: '/admin/financeiro/faturas/:id', view: () => import('./views/admin/fatura.js'), title: 'Fatura', access: 'admin' },
  { path: '/admin/financeiro/faturas/:id/recibo', view: () => import('./views/recibo.js'), title: 'Recibo', access: 'admin' },
  { path: '/admin/indicadores', view: () => import('./views/admin/indicadores.js'), title: 'Indicadores', access: 'admin', nav: 'admin', label: 'Indicadores' },
  { path: '/admin/auditoria', view: () => import('./views/admin/auditoria.js'), title: 'Trilha de auditoria', access: 'admin', nav: 'admin', label: 'Auditoria' },
];
