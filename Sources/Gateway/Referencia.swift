import Foundation

/// The API reference at `/docs`: a page, its script and its stylesheet, which every deployable
/// (`serve`, `serve --service X`, the gateway) serves from its own binary, as the image ships
/// nothing else: no CDN, no file beside it, nothing from another origin. The script reads
/// `/openapi.json` from the same origin and shows the operations by service (the tags), with
/// their parameters, body schemas, an example body, the responses and a form to try each one
/// with the web app's token (or one pasted in).
enum Referencia {
    /// Nothing from another origin, and no inline script or style.
    static let politica =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The script, told which operations need the admin role (`get /api/admin/usuarios`, from the
    /// route table: `/openapi.json` says only that a token is needed).
    static func script(administrativas: [String]) -> String {
        let lista = (try? JSONSerialization.data(withJSONObject: administrativas.sorted(), options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return codigo.replacingOccurrences(of: "/*ADMINISTRATIVAS*/[]", with: String(decoding: lista, as: UTF8.self))
    }

    /// The page: only links to the script and the stylesheet (a Content-Security-Policy without
    /// 'unsafe-inline' holds), and a link to `/openapi.json` that works without script.
    static let pagina = #"""
        <!doctype html>
        <html lang="pt-BR">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <meta name="referrer" content="same-origin">
          <title>CoworkFlow API — referência</title>
          <link rel="icon" href="data:,">
          <link rel="stylesheet" href="/docs/referencia.css">
          <script type="module" src="/docs/referencia.js"></script>
        </head>
        <body>
          <a class="pular" href="#grupos">Pular para as operações</a>
          <header class="topo">
            <p class="marca">CoworkFlow <span>· referência da API</span></p>
          </header>
          <main id="conteudo" tabindex="-1">
            <div id="view" aria-busy="true">
              <h1 id="titulo">Referência da API</h1>
              <p id="versao" class="versao"></p>
              <p id="descricao"></p>
              <p>O documento completo, para gerar clientes: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
              <p id="carregando" class="carregando" role="status">Carregando o documento…</p>
              <noscript><p class="alerta">Esta página precisa de JavaScript. Leia a API em <a href="/openapi.json">/openapi.json</a>.</p></noscript>

              <section id="autorizacao" class="painel" aria-labelledby="autorizacao-titulo" data-depois hidden>
                <h2 id="autorizacao-titulo">Autorização</h2>
                <div class="campo-form">
                  <label for="token">Token (Bearer)</label>
                  <input id="token" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="token-dica">
                  <p id="token-dica" class="dica"></p>
                </div>
                <button type="button" id="token-limpar" class="botao botao-secundario">Limpar o token</button>
              </section>

              <div class="filtro" role="search" data-depois hidden>
                <label for="filtro">Filtrar operações</label>
                <input id="filtro" type="search" autocomplete="off" spellcheck="false" aria-describedby="filtro-dica filtro-estado">
                <p id="filtro-dica" class="dica">Por método, caminho, resumo ou serviço (ex.: <code>post reservas</code>). Esc limpa.</p>
                <p id="filtro-estado" class="dica" role="status"></p>
              </div>
              <p id="nenhuma" class="vazio" hidden>Nenhuma operação corresponde ao filtro.</p>

              <nav class="painel" aria-labelledby="indice-titulo" data-depois hidden>
                <h2 id="indice-titulo">Serviços</h2>
                <ul id="indice" class="indice"></ul>
              </nav>

              <div id="grupos" tabindex="-1"></div>
            </div>
          </main>
        </body>
        </html>
        """#

    /// Plain DOM, loaded as a module; `/*ADMINISTRATIVAS*/[]` is replaced by ``script(administrativas:)``.
    private static let codigo = #"""
        // The API reference at /docs. It reads /openapi.json from this origin and builds the page with the
        // DOM: texts from the document are set as text, never parsed as markup. No framework, no build
        // step, nothing from another origin, no inline script (a module: strict and deferred).

        // The operations that need the admin role ("get /api/admin/usuarios"): the server fills this in
        // from its route table (OpenAPI says only that a token is needed).
        const ADMINISTRATIVAS = new Set(/*ADMINISTRATIVAS*/[]);
        // The web app's session (web/js/lib/session.js): {token, expiraEm, usuario: {nome, papel}}.
        const SESSAO = 'coworkflow.sessao';
        const METODOS = ['get', 'post', 'put', 'patch', 'delete'];
        const COM_CORPO = new Set(['post', 'put', 'patch']);
        // The tags are the services; this is their order on the page (others follow by name).
        const SERVICOS = {
          auth: 'Contas e acesso', usuarios: 'Usuários', espacos: 'Espaços', precos: 'Preços',
          reservas: 'Reservas', pagamentos: 'Pagamentos', checkin: 'Check-in', notificacoes: 'Notificações',
          financeiro: 'Financeiro', analytics: 'Indicadores', admin: 'Administração', lgpd: 'LGPD',
          sandbox: 'Sandbox de pagamentos', operacao: 'Operação',
        };
        // Every string of a request body follows this rule (no control character but tab and line
        // breaks): said once per body instead of on every field.
        const SEM_CONTROLE = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$';
        const TEXTO_LIVRE = '^(?!\\s*pii:)';
        // Bounds at or past this are the 64-bit limit every integer has, not a rule of the field.
        const LIMITE = 9e15;
        const UUID_EXEMPLO = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
        const MUITOS_VALORES = 12;
        const LIMITE_DA_RESPOSTA = 50000;

        let esquemas = {};
        const operacoes = [];

        // ---- DOM ----------------------------------------------------------------------------------------

        function el(tag, atributos = {}, ...filhos) {
          const node = document.createElement(tag);
          for (const [nome, valor] of Object.entries(atributos)) {
            if (valor === undefined || valor === null || valor === false) continue;
            if (nome === 'class') node.className = valor;
            else node.setAttribute(nome, valor === true ? '' : String(valor));
          }
          for (const filho of filhos.flat()) {
            if (filho !== null && filho !== undefined && filho !== false) node.append(filho);
          }
          return node;
        }

        const codigo = (texto) => el('code', {}, String(texto));

        /** Text with `code` spans (the document's descriptions use backticks). */
        function comCodigo(texto) {
          return String(texto).split('`').map((parte, i) => (i % 2 ? codigo(parte) : parte));
        }

        function semAcento(texto) {
          return texto.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
        }

        function slug(texto) {
          return semAcento(texto).replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
        }

        // ---- schemas ------------------------------------------------------------------------------------

        const ehNulo = (s) => s && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null'));

        /** A schema with its `$ref` resolved and "X or null" unwrapped: {s, nome, nulo, tipos}. */
        function abrir(schema) {
          let s = schema ?? {};
          let nome = null;
          let nulo = false;
          for (let passo = 0; passo < 8; passo++) {
            if (typeof s.$ref === 'string') {
              nome = s.$ref.replace('#/components/schemas/', '');
              s = esquemas[nome] ?? {};
            } else if (Array.isArray(s.anyOf) && s.anyOf.length === 2 && s.anyOf.some(ehNulo)) {
              nulo = true;
              s = s.anyOf.find((a) => !ehNulo(a));
            } else {
              break;
            }
          }
          let tipos = [].concat(s.type ?? []);
          if (tipos.includes('null')) nulo = true;
          tipos = tipos.filter((t) => t !== 'null');
          if (!tipos.length && s.properties) tipos = ['object'];
          return { s, nome, nulo, tipos };
        }

        function tipoTexto(info) {
          const { s, nome, nulo, tipos } = info;
          let texto;
          if (s.const !== undefined) texto = `constante ${JSON.stringify(s.const)}`;
          else if (nome && (tipos.includes('object') || !tipos.length)) texto = nome;
          else if (tipos.includes('array')) texto = `array de ${tipoTexto(abrir(s.items))}`;
          else if (tipos.length) texto = tipos.join(' ou ') + (s.format ? ` (${s.format})` : '');
          else if (s.anyOf || s.oneOf) texto = 'um de vários tipos';
          else texto = 'qualquer valor JSON';
          if (nome && !texto.startsWith(nome)) texto = `${nome}: ${texto}`;
          return nulo ? `${texto} ou null` : texto;
        }

        /** "de 1 a 100 caracteres", "no mínimo 1 item": `unidade` is [singular, plural] ('' for numbers). */
        function intervalo(minimo, maximo, unidade = ['', '']) {
          const min = Math.abs(minimo ?? 0) < LIMITE ? minimo : undefined;
          const max = Math.abs(maximo ?? 0) < LIMITE ? maximo : undefined;
          const de = (n) => (unidade[0] ? ` ${n === 1 ? unidade[0] : unidade[1]}` : '');
          if (min !== undefined && max !== undefined) return min === max ? `exatamente ${min}${de(min)}` : `de ${min} a ${max}${de(max)}`;
          if (min !== undefined) return `no mínimo ${min}${de(min)}`;
          if (max !== undefined) return `no máximo ${max}${de(max)}`;
          return null;
        }

        /** What a value must be, beyond its type: nodes to put after it. */
        function regras(s) {
          const partes = [];
          const texto = intervalo(s.minLength, s.maxLength, ['caractere', 'caracteres']);
          if (texto) partes.push(texto);
          const numero = intervalo(s.minimum, s.maximum);
          if (numero) partes.push(numero);
          const itens = intervalo(s.minItems, s.maxItems, ['item', 'itens']);
          if (itens) partes.push(itens);
          if (typeof s.pattern === 'string' && s.pattern !== SEM_CONTROLE) {
            if (s.pattern.startsWith(TEXTO_LIVRE)) {
              partes.push('não começa com “pii:”');
              if (s.pattern.includes('(?=[\\s\\S]*\\S)')) partes.push('não pode ficar em branco');
            } else {
              partes.push(['expressão regular ', codigo(s.pattern)]);
            }
          }
          if (s.default !== undefined) partes.push(['valor padrão ', codigo(JSON.stringify(s.default))]);
          const nos = [];
          partes.forEach((parte, i) => nos.push(i ? '; ' : '', parte));
          return nos.flat();
        }

        function valores(s) {
          const lista = (s.enum ?? []).filter((v) => v !== null);
          if (!lista.length) return null;
          const codigos = [];
          lista.forEach((v, i) => codigos.push(i ? ', ' : '', codigo(typeof v === 'string' ? v : JSON.stringify(v))));
          if (lista.length <= MUITOS_VALORES) return el('span', { class: 'valores' }, 'valores: ', codigos);
          return el('details', { class: 'valores' }, el('summary', {}, `${lista.length} valores possíveis`), el('p', {}, codigos));
        }

        /** The fields of an object schema, each with its type, whether required and its rules; nested
         *  objects (and arrays of them) indented under their field. `pilha`: the schemas being shown. */
        function campos(s, pilha) {
          const obrigatorios = new Set(s.required ?? []);
          const lista = el('ul', { class: 'esquema' });
          // The required fields first.
          const entradas = Object.entries(s.properties ?? {});
          entradas.sort(([a], [b]) => Number(obrigatorios.has(b)) - Number(obrigatorios.has(a)));
          for (const [nome, sub] of entradas) lista.append(campo(nome, sub, obrigatorios.has(nome), pilha));
          return lista;
        }

        function campo(nome, schema, obrigatorio, pilha) {
          const info = abrir(schema);
          const item = el('li', {}, el('code', { class: 'campo' }, nome), ' ', el('span', { class: 'tipo' }, tipoTexto(info)));
          if (obrigatorio) item.append(' ', el('strong', { class: 'obrigatorio' }, 'obrigatório'));
          const descricao = schema?.description ?? info.s.description;
          if (descricao) item.append(el('span', { class: 'descricao' }, ' — ', comCodigo(descricao)));
          const detalhes = regras(info.s);
          if (detalhes.length) item.append(el('span', { class: 'regras' }, detalhes));
          const opcoes = valores(info.s);
          if (opcoes) item.append(opcoes);
          const dentro = interior(info, pilha);
          if (dentro) item.append(dentro);
          return item;
        }

        /** What is inside a value: an object's fields, an array's items, the variants of a choice. */
        function interior(info, pilha) {
          const { s, nome } = info;
          if (nome && pilha.includes(nome)) return el('p', { class: 'regras' }, `(${nome}, como acima)`);
          if (pilha.length > 8) return null;
          const dentro = nome ? [...pilha, nome] : pilha;
          if (s.properties) {
            const bloco = el('div', { class: 'interior' }, campos(s, dentro));
            if (s.oneOf) bloco.append(variantes(s));
            return bloco;
          }
          if (info.tipos.includes('array') && s.items) {
            const item = abrir(s.items);
            const regrasDoItem = regras(item.s);
            const opcoes = valores(item.s);
            const interno = interior(item, dentro);
            if (!regrasDoItem.length && !opcoes) return interno;
            return el('div', { class: 'interior' },
              el('p', { class: 'regras' }, 'cada item: ', regrasDoItem.length ? regrasDoItem : tipoTexto(item)), opcoes, interno);
          }
          const escolhas = s.anyOf ?? s.oneOf;
          if (Array.isArray(escolhas) && !s.properties) {
            return el('ul', { class: 'esquema interior' },
              escolhas.map((v) => el('li', {}, 'ou ', el('span', { class: 'tipo' }, tipoTexto(abrir(v))))));
          }
          return null;
        }

        /** An object whose required fields depend on one of them (`oneOf` with `const`). */
        function variantes(s) {
          const lista = el('ul', { class: 'esquema' });
          for (const variante of s.oneOf) {
            const fixos = Object.entries(variante.properties ?? {}).filter(([, v]) => v.const !== undefined);
            const rotulo = fixos.length ? fixos.map(([k, v]) => `${k} = ${JSON.stringify(v.const)}`).join(', ') : 'ou';
            const exigidos = (variante.required ?? []).filter((k) => !fixos.some(([f]) => f === k));
            lista.append(el('li', {}, codigo(rotulo), ': exige ', exigidos.length ? exigidos.map((k, i) => [i ? ', ' : '', codigo(k)]).flat() : 'nada mais'));
          }
          return el('div', { class: 'variantes' }, el('p', {}, 'Os campos obrigatórios dependem de um deles:'), lista);
        }

        // ---- examples -----------------------------------------------------------------------------------

        function doisDigitos(n) {
          return String(n).padStart(2, '0');
        }

        /** Tomorrow at `hora` in the browser's zone, as RFC 3339 with the offset. */
        function instante(hora) {
          const d = new Date();
          d.setDate(d.getDate() + 1);
          d.setHours(hora, 0, 0, 0);
          const minutos = -d.getTimezoneOffset();
          const desvio = `${minutos < 0 ? '-' : '+'}${doisDigitos(Math.floor(Math.abs(minutos) / 60))}:${doisDigitos(Math.abs(minutos) % 60)}`;
          return `${dia(d)}T${doisDigitos(hora)}:00:00${desvio}`;
        }

        function dia(d) {
          return `${d.getFullYear()}-${doisDigitos(d.getMonth() + 1)}-${doisDigitos(d.getDate())}`;
        }

        function numeroDeExemplo(s) {
          const min = Math.abs(s.minimum ?? 0) < LIMITE ? s.minimum : undefined;
          const max = Math.abs(s.maximum ?? 0) < LIMITE ? s.maximum : undefined;
          if (min !== undefined) return min;
          if (max !== undefined && max < 0) return max;
          return 0;
        }

        function textoDeExemplo(s, nome) {
          switch (s.format) {
            case 'date-time': return instante(/^(fim|ate|termino)|(Fim|Ate)$/.test(nome ?? '') ? 12 : 10);
            case 'date': { const d = new Date(); d.setDate(d.getDate() + 1); return dia(d); }
            case 'uuid': return UUID_EXEMPLO;
            case 'email': return 'pessoa@exemplo.com.br';
            case 'uri': return 'https://exemplo.com.br/';
            default: break;
          }
          let texto = /senha/i.test(nome ?? '') ? 'uma-senha-longa-2024' : 'exemplo';
          while (texto.length < (s.minLength ?? 0)) texto += 'x';
          return s.maxLength ? texto.slice(0, Math.max(s.maxLength, 1)) : texto;
        }

        /** A value that fits the schema: its example, const, default or first enum value when it has
         *  one; otherwise made from its type and format (an object: its required fields, or all). */
        function exemplo(schema, nome, pilha = []) {
          const info = abrir(schema);
          const { s } = info;
          if (s.example !== undefined) return s.example;
          if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
          if (s.const !== undefined) return s.const;
          if (s.default !== undefined) return s.default;
          const opcoes = (s.enum ?? []).filter((v) => v !== null);
          if (opcoes.length) return opcoes[0];
          if (info.nome && pilha.includes(info.nome)) return null;
          const dentro = info.nome ? [...pilha, info.nome] : pilha;
          if (!info.tipos.length && (s.anyOf || s.oneOf)) {
            const escolha = (s.anyOf ?? s.oneOf).find((v) => !ehNulo(v));
            return escolha ? exemplo(escolha, nome, dentro) : null;
          }
          const tipo = info.tipos[0];
          if (tipo === 'object') {
            const variante = Array.isArray(s.oneOf) ? s.oneOf[0] : null;
            const exigidos = variante?.required ?? s.required ?? [];
            const propriedades = s.properties ?? {};
            const nomes = exigidos.length ? exigidos : Object.keys(propriedades);
            const objeto = {};
            for (const campoNome of nomes) {
              const fixo = variante?.properties?.[campoNome]?.const;
              objeto[campoNome] = fixo !== undefined ? fixo : exemplo(propriedades[campoNome] ?? {}, campoNome, dentro);
            }
            return objeto;
          }
          if (tipo === 'array') return [exemplo(s.items ?? {}, nome, dentro)];
          if (tipo === 'string') return textoDeExemplo(s, nome);
          if (tipo === 'integer' || tipo === 'number') return numeroDeExemplo(s);
          if (tipo === 'boolean') return true;
          return info.nulo ? null : {};
        }

        // ---- the page -----------------------------------------------------------------------------------

        function servico(tag) {
          return SERVICOS[tag] ?? tag.charAt(0).toUpperCase() + tag.slice(1);
        }

        function ordemDoServico(a, b) {
          const ia = Object.keys(SERVICOS).indexOf(a);
          const ib = Object.keys(SERVICOS).indexOf(b);
          if (ia !== ib) return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib);
          return a.localeCompare(b);
        }

        function mostrarCabecalho(documento) {
          const info = documento.info ?? {};
          document.getElementById('titulo').textContent = info.title ?? 'API';
          document.title = `${info.title ?? 'API'} — referência`;
          const versao = document.getElementById('versao');
          versao.textContent = '';
          versao.append(`Versão ${info.version ?? '?'} · OpenAPI ${documento.openapi ?? '?'}`);
          if (info.description) document.getElementById('descricao').replaceChildren(...comCodigo(info.description));
        }

        function tokenDaSessao() {
          try {
            const valor = JSON.parse(sessionStorage.getItem(SESSAO) ?? 'null');
            if (!valor?.token) return null;
            if (valor.expiraEm && Date.parse(valor.expiraEm) <= Date.now()) return null;
            return valor;
          } catch {
            return null;
          }
        }

        function prepararToken() {
          const campoToken = document.getElementById('token');
          const dica = document.getElementById('token-dica');
          const sessao = tokenDaSessao();
          if (sessao) {
            campoToken.value = sessao.token;
            const quem = sessao.usuario?.nome ? `${sessao.usuario.nome}${sessao.usuario.papel ? ` (${sessao.usuario.papel})` : ''}` : 'sua conta';
            dica.textContent = `Lido da sua sessão no app neste navegador: ${quem}. Vai no cabeçalho Authorization das operações que exigem token.`;
          } else {
            dica.textContent = 'Nenhuma sessão do app neste navegador: cole um token (POST /api/auth/login devolve um). '
              + 'Vai no cabeçalho Authorization das operações que exigem token.';
          }
          document.getElementById('token-limpar').addEventListener('click', () => {
            campoToken.value = '';
            campoToken.focus();
          });
        }

        function montar(documento) {
          esquemas = documento.components?.schemas ?? {};
          const grupos = new Map();
          for (const [caminho, metodos] of Object.entries(documento.paths ?? {})) {
            for (const metodo of METODOS) {
              const op = metodos[metodo];
              if (!op) continue;
              const tag = op.tags?.[0] ?? 'outros';
              if (!grupos.has(tag)) grupos.set(tag, []);
              grupos.get(tag).push({ caminho, metodo, op });
            }
          }
          const indice = document.getElementById('indice');
          const lugar = document.getElementById('grupos');
          const usados = new Set();
          for (const tag of [...grupos.keys()].sort(ordemDoServico)) {
            const lista = grupos.get(tag).sort((a, b) => a.caminho.localeCompare(b.caminho) || METODOS.indexOf(a.metodo) - METODOS.indexOf(b.metodo));
            const id = `grupo-${slug(tag)}`;
            const titulo = el('h2', { id: `${id}-titulo` }, servico(tag));
            const contagem = el('p', { class: 'contagem' }, 'serviço ', codigo(tag), ` · ${lista.length} ${lista.length === 1 ? 'operação' : 'operações'}`);
            const secao = el('section', { id, class: 'grupo', 'aria-labelledby': `${id}-titulo`, 'data-tag': tag }, titulo, contagem);
            for (const item of lista) secao.append(operacao(item, usados));
            lugar.append(secao);
            indice.append(el('li', { 'data-tag': tag }, el('a', { href: `#${id}` }, servico(tag)), ` (${lista.length})`));
          }
        }

        function operacao({ caminho, metodo, op }, usados) {
          let id = `op-${metodo}-${slug(caminho)}`;
          while (usados.has(id)) id += '-';
          usados.add(id);
          const rotulo = `${metodo.toUpperCase()} ${caminho}`;
          const exigeToken = Array.isArray(op.security) && op.security.length > 0;
          const admin = ADMINISTRATIVAS.has(`${metodo} ${caminho}`);
          const resumo = el('summary', {},
            el('span', { class: `metodo metodo-${metodo}` }, metodo.toUpperCase()), ' ',
            el('code', { class: 'caminho' }, caminho), ' ',
            el('span', { class: 'resumo' }, op.summary ?? ''),
            exigeToken ? el('span', { class: `selo${admin ? ' selo-admin' : ''}` }, admin ? 'admin' : 'token') : null);
          const corpo = el('div', { class: 'op-corpo' });
          corpo.append(el('p', { class: 'acesso' }, admin
            ? 'Exige token de uma conta de administrador (sem token: 401; outra conta: 403).'
            : exigeToken ? 'Exige token (Authorization: Bearer …); sem ele: 401.' : 'Pública: não exige token.'));
          const parametros = op.parameters ?? [];
          if (parametros.length) corpo.append(el('h3', {}, 'Parâmetros'), listaDeParametros(parametros));
          const pedido = op.requestBody?.content?.['application/json']?.schema;
          if (pedido) corpo.append(...secaoDoCorpo(pedido));
          corpo.append(el('h3', {}, 'Respostas'), respostas(op.responses ?? {}));
          corpo.append(el('h3', {}, 'Experimentar'), experimentar({ id, caminho, metodo, parametros, pedido, exigeToken }));
          const detalhes = el('details', { id, class: 'op', 'data-operacao': rotulo }, resumo, corpo);
          // The address names the operation last opened, to share it (opened again on load).
          detalhes.addEventListener('toggle', () => {
            if (detalhes.open) history.replaceState(null, '', `#${id}`);
          });
          operacoes.push({ detalhes, texto: semAcento(`${rotulo} ${op.summary ?? ''} ${op.tags?.[0] ?? ''}`) });
          return detalhes;
        }

        function listaDeParametros(parametros) {
          const lugares = { path: 'no caminho', query: 'na consulta', header: 'no cabeçalho' };
          return el('ul', { class: 'esquema' }, parametros.map((p) => {
            const info = abrir(p.schema);
            const item = el('li', {}, el('code', { class: 'campo' }, p.name), ' ',
              el('span', { class: 'tipo' }, `${tipoTexto(info)}, ${lugares[p.in] ?? `em ${p.in}`}`));
            if (p.required) item.append(' ', el('strong', { class: 'obrigatorio' }, 'obrigatório'));
            const descricao = p.description ?? info.s.description;
            if (descricao) item.append(el('span', { class: 'descricao' }, ' — ', comCodigo(descricao)));
            const detalhes = regras(info.s);
            if (detalhes.length) item.append(el('span', { class: 'regras' }, detalhes));
            const opcoes = valores(info.s);
            if (opcoes) item.append(opcoes);
            return item;
          }));
        }

        function secaoDoCorpo(pedido) {
          const info = abrir(pedido);
          const partes = [el('h3', {}, 'Corpo da requisição')];
          const sobre = el('p', {}, 'JSON', info.nome ? [' do esquema ', codigo(info.nome)] : '');
          sobre.append(...(info.s.description ? [' — ', ...comCodigo(info.s.description)] : ['.']));
          partes.push(sobre);
          const dentro = interior(info, []);
          if (dentro) partes.push(dentro);
          const avisos = ['Textos sem caracteres de controle (tabulação e quebras de linha valem).'];
          if (info.s.additionalProperties === false) avisos.unshift('Só os campos listados: outro campo é recusado (422).');
          partes.push(el('p', { class: 'regras' }, avisos.join(' ')));
          partes.push(el('p', { class: 'rotulo' }, 'Exemplo'), el('pre', { class: 'json', tabindex: '0', 'aria-label': 'Exemplo do corpo' },
            JSON.stringify(exemplo(pedido), null, 2)));
          return partes;
        }

        function respostas(todas) {
          const lista = el('ul', { class: 'respostas' });
          const erros = [];
          let esquemaDosErros = null;
          for (const status of Object.keys(todas).sort()) {
            const resposta = todas[status];
            const [tipo, conteudo] = Object.entries(resposta.content ?? {})[0] ?? [];
            const info = conteudo?.schema ? abrir(conteudo.schema) : null;
            const numero = el('strong', { class: `status status-${status[0]}xx` }, status);
            if (!status.startsWith('2') && info?.nome) {
              // The errors share one body ({erro, mensagem, detalhes}): listed together.
              esquemaDosErros ??= info.nome;
              erros.push(el('li', {}, numero, ' ', resposta.description ?? ''));
              continue;
            }
            const item = el('li', {}, numero, ' ', resposta.description ?? '');
            if (info) item.append(' — ', info.nome ? codigo(info.nome) : el('span', { class: 'tipo' }, tipoTexto(info)));
            if (tipo && tipo !== 'application/json') item.append(` (${tipo})`);
            const dentro = info && status.startsWith('2') ? interior(info, []) : null;
            if (dentro) item.append(el('details', { class: 'esquema-resposta' }, el('summary', {}, `Campos de ${info.nome ?? 'resposta'}`), dentro));
            lista.append(item);
          }
          if (erros.length) {
            lista.append(el('li', {}, `Erros, com o corpo ${esquemaDosErros} `, codigo('{erro, mensagem, detalhes}'), ':',
              el('ul', { class: 'erros' }, erros)));
          }
          return lista;
        }

        // ---- try it -------------------------------------------------------------------------------------

        function experimentar({ id, caminho, metodo, parametros, pedido, exigeToken }) {
          const form = el('form', { class: 'experimentar', novalidate: true });
          const entradas = [];
          for (const p of parametros) {
            const info = abrir(p.schema);
            const campoId = `${id}-${p.in}-${slug(p.name)}`;
            const dicaId = `${campoId}-dica`;
            const rotulo = el('label', { for: campoId }, p.name, p.required ? '' : el('span', { class: 'opcional' }, ' (opcional)'));
            const opcoes = (info.s.enum ?? []).filter((v) => v !== null);
            let entrada;
            if (opcoes.length && opcoes.length <= 50) {
              entrada = el('select', { id: campoId, 'aria-describedby': dicaId }, el('option', { value: '' }, '(nenhum)'),
                opcoes.map((v) => el('option', { value: String(v) }, String(v))));
            } else {
              const dica = info.s.format === 'uuid' ? 'UUID' : info.s.format === 'date' ? 'AAAA-MM-DD' : '';
              entrada = el('input', { id: campoId, type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': dicaId,
                placeholder: dica || null, inputmode: info.tipos.includes('integer') ? 'numeric' : null });
            }
            const ajuda = el('p', { class: 'dica', id: dicaId }, `${{ path: 'no caminho', query: 'na consulta', header: 'no cabeçalho' }[p.in] ?? p.in}`,
              p.description ? [' — ', ...comCodigo(p.description)] : '');
            const erro = el('p', { class: 'erro-do-campo', id: `${campoId}-erro` });
            entrada.setAttribute('aria-describedby', `${dicaId} ${erro.id}`);
            form.append(el('div', { class: 'campo-form' }, rotulo, entrada, ajuda, erro));
            entradas.push({ p, entrada, erro });
          }
          let corpo = null;
          if (COM_CORPO.has(metodo) && pedido) {
            const corpoId = `${id}-corpo`;
            const modelo = JSON.stringify(exemplo(pedido), null, 2);
            corpo = el('textarea', { id: corpoId, rows: String(Math.min(14, Math.max(3, modelo.split('\n').length + 1))), spellcheck: 'false',
              'aria-describedby': `${corpoId}-dica` });
            corpo.value = modelo;
            const restaurar = el('button', { type: 'button', class: 'botao botao-secundario' }, 'Restaurar o exemplo');
            restaurar.addEventListener('click', () => { corpo.value = modelo; corpo.focus(); });
            form.append(el('div', { class: 'campo-form' }, el('label', { for: corpoId }, 'Corpo (JSON)'),
              corpo, el('p', { class: 'dica', id: `${corpoId}-dica` }, 'Gerado a partir do esquema; edite à vontade.'), restaurar));
          }
          const enviar = el('button', { type: 'submit', class: 'botao' }, 'Enviar');
          const nota = exigeToken ? el('p', { class: 'dica' }, 'Vai com o token de “Autorização”, no topo da página.') : null;
          const saida = el('div', { class: 'resposta', 'aria-live': 'polite' });
          form.append(...[nota, enviar, saida].filter(Boolean));
          form.addEventListener('submit', (evento) => {
            evento.preventDefault();
            enviarPedido({ caminho, metodo, entradas, corpo, exigeToken, enviar, saida });
          });
          return form;
        }

        async function enviarPedido({ caminho, metodo, entradas, corpo, exigeToken, enviar, saida }) {
          let url = caminho;
          const consulta = new URLSearchParams();
          const cabecalhos = {};
          let primeiroErro = null;
          for (const { p, entrada, erro } of entradas) {
            const valor = entrada.value.trim();
            erro.textContent = '';
            entrada.removeAttribute('aria-invalid');
            if (!valor && p.required) {
              erro.textContent = `Informe ${p.name}.`;
              entrada.setAttribute('aria-invalid', 'true');
              primeiroErro ??= entrada;
              continue;
            }
            if (!valor) continue;
            if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(valor));
            else if (p.in === 'query') consulta.append(p.name, valor);
            else if (p.in === 'header') cabecalhos[p.name] = valor;
          }
          if (primeiroErro) {
            primeiroErro.focus();
            return;
          }
          if (consulta.toString()) url += `?${consulta}`;
          const token = document.getElementById('token').value.trim();
          if (exigeToken && token) cabecalhos.Authorization = `Bearer ${token}`;
          const pedido = { method: metodo.toUpperCase(), headers: cabecalhos, credentials: 'same-origin', cache: 'no-store' };
          if (corpo && corpo.value.trim()) {
            pedido.body = corpo.value;
            cabecalhos['Content-Type'] = 'application/json';
          }
          saida.setAttribute('aria-busy', 'true');
          enviar.disabled = true;
          saida.replaceChildren(el('p', { class: 'carregando' }, `Enviando ${pedido.method} ${url}…`));
          const inicio = performance.now();
          try {
            const resposta = await fetch(url, pedido);
            const texto = await resposta.text();
            mostrarResposta(saida, { resposta, texto, url, metodo: pedido.method, ms: Math.round(performance.now() - inicio), semToken: exigeToken && !token });
          } catch (erro) {
            saida.replaceChildren(el('p', { class: 'alerta', role: 'alert' }, `Sem resposta do servidor: ${erro.message}`));
          } finally {
            saida.removeAttribute('aria-busy');
            enviar.disabled = false;
          }
        }

        function mostrarResposta(saida, { resposta, texto, url, metodo, ms, semToken }) {
          const ok = resposta.ok;
          const partes = [el('p', { class: `status-linha ${ok ? 'sucesso' : 'falha'}` },
            el('strong', {}, `${resposta.status} ${resposta.statusText}`), ` · ${metodo} `, codigo(url), ` · ${ms} ms`)];
          const lista = el('dl', { class: 'cabecalhos' });
          for (const nome of ['X-Request-Id', 'Retry-After', 'Content-Type', 'Idempotent-Replayed', 'Coworkflow-Consistencia']) {
            const valor = resposta.headers.get(nome);
            if (valor) lista.append(el('dt', {}, nome), el('dd', {}, codigo(valor)));
          }
          partes.push(lista);
          let json;
          try {
            json = texto ? JSON.parse(texto) : undefined;
          } catch {
            json = undefined;
          }
          if (json && typeof json === 'object' && typeof json.erro === 'string') {
            partes.push(el('p', { class: 'alerta' }, 'erro ', codigo(json.erro), json.mensagem ? ` — ${json.mensagem}` : ''));
          }
          if (semToken && resposta.status === 401) partes.push(el('p', { class: 'dica' }, 'Nenhum token foi enviado: preencha “Token (Bearer)” no topo.'));
          const mostrado = json !== undefined ? JSON.stringify(json, null, 2) : texto;
          if (mostrado) {
            const cortado = mostrado.length > LIMITE_DA_RESPOSTA ? `${mostrado.slice(0, LIMITE_DA_RESPOSTA)}\n… (${mostrado.length} caracteres; cortado)` : mostrado;
            partes.push(el('pre', { class: 'json', tabindex: '0', 'aria-label': `Corpo da resposta ${resposta.status}` }, cortado));
          } else {
            partes.push(el('p', { class: 'dica' }, 'Resposta sem corpo.'));
          }
          if (json && typeof json.token === 'string') {
            const usar = el('button', { type: 'button', class: 'botao botao-secundario' }, 'Usar o token desta resposta');
            usar.addEventListener('click', () => {
              document.getElementById('token').value = json.token;
              usar.replaceWith(el('p', { class: 'dica', role: 'status' }, 'Token em “Autorização”, no topo da página.'));
            });
            partes.push(usar);
          }
          saida.replaceChildren(...partes);
        }

        // ---- filter ---------------------------------------------------------------------------------------

        function prepararFiltro() {
          const filtro = document.getElementById('filtro');
          const estado = document.getElementById('filtro-estado');
          const aplicar = () => {
            const termos = semAcento(filtro.value).split(/\s+/).filter(Boolean);
            let visiveis = 0;
            for (const { detalhes, texto } of operacoes) {
              const mostra = termos.every((t) => texto.includes(t));
              detalhes.hidden = !mostra;
              if (mostra) visiveis++;
            }
            for (const secao of document.querySelectorAll('.grupo')) {
              const algum = [...secao.querySelectorAll('details.op')].some((d) => !d.hidden);
              secao.hidden = !algum;
              const link = document.querySelector(`#indice li[data-tag="${CSS.escape(secao.dataset.tag)}"]`);
              if (link) link.hidden = !algum;
            }
            estado.textContent = termos.length
              ? `${visiveis} de ${operacoes.length} operações`
              : `${operacoes.length} operações`;
            document.getElementById('nenhuma').hidden = visiveis > 0;
          };
          filtro.addEventListener('input', aplicar);
          filtro.addEventListener('keydown', (evento) => {
            if (evento.key === 'Escape' && filtro.value) {
              filtro.value = '';
              aplicar();
            }
          });
          aplicar();
        }

        async function iniciar() {
          const vista = document.getElementById('view');
          const aviso = document.getElementById('carregando');
          prepararToken();
          try {
            const resposta = await fetch('/openapi.json', { headers: { Accept: 'application/json' }, cache: 'no-cache' });
            if (!resposta.ok) throw new Error(`${resposta.status} ${resposta.statusText}`);
            const documento = await resposta.json();
            mostrarCabecalho(documento);
            montar(documento);
            prepararFiltro();
            aviso.hidden = true;
            for (const bloco of document.querySelectorAll('[data-depois]')) bloco.hidden = false;
            const alvo = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
            if (alvo) {
              if (alvo.tagName === 'DETAILS') alvo.open = true;
              alvo.scrollIntoView();
            }
          } catch (erro) {
            aviso.replaceChildren('Não foi possível ler ', el('a', { href: '/openapi.json' }, '/openapi.json'), `: ${erro.message}.`);
            aviso.classList.add('alerta');
          } finally {
            vista.removeAttribute('aria-busy');
          }
        }

        iniciar();
        """#

    static let estilo = #"""
        /* The API reference (/docs): one stylesheet, mobile first; the web app's colours (WCAG AA). */
        :root {
          --texto: #1b1f24; --suave: #4a5260; --fundo: #ffffff; --fundo-suave: #f3f5f8;
          --borda: #8a93a3; --borda-suave: #d5dae2; --primaria: #0b5cad; --primaria-escura: #08457f;
          --foco: #ffbf47; --perigo: #b3261e; --perigo-fundo: #fdecea; --sucesso: #1e6b34; --sucesso-fundo: #e7f4ea;
          --aviso: #7a4a00; --aviso-fundo: #fff4dc; --info-fundo: #e8f1fb; --raio: 6px;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, Cantarell, sans-serif;
          line-height: 1.5; color: var(--texto); background: var(--fundo);
        }
        *, *::before, *::after { box-sizing: border-box; }
        body { margin: 0; overflow-wrap: anywhere; }
        h1, h2, h3 { line-height: 1.25; margin: 0 0 0.5em; }
        h1 { font-size: 1.75rem; }
        h2 { font-size: 1.35rem; margin-top: 1.5rem; }
        h3 { font-size: 1rem; margin-top: 1.25rem; }
        p { margin: 0 0 0.75em; }
        a { color: var(--primaria); text-underline-offset: 0.15em; }
        code, pre, .caminho { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
        code { overflow-wrap: anywhere; }
        [hidden] { display: none !important; }
        :focus-visible { outline: 3px solid var(--foco); outline-offset: 2px; box-shadow: 0 0 0 5px var(--texto); }
        #conteudo:focus, #grupos:focus { outline: none; box-shadow: none; }

        .pular { position: absolute; left: 0.5rem; top: -3rem; background: var(--texto); color: #fff; padding: 0.5rem 1rem; z-index: 10; border-radius: var(--raio); }
        .pular:focus { top: 0.5rem; }
        .topo { background: var(--primaria-escura); color: #fff; padding: 0.75rem 1rem; }
        .marca { margin: 0 auto; max-width: 72rem; font-weight: 700; font-size: 1.2rem; }
        .marca span { font-weight: 400; }
        main { max-width: 72rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
        .versao, .contagem, .dica, .regras { color: var(--suave); }
        .dica { font-size: 0.875rem; margin: 0.25rem 0 0; }
        .carregando { color: var(--suave); }
        .alerta { background: var(--perigo-fundo); border-left: 6px solid var(--perigo); border-radius: var(--raio); padding: 0.5rem 0.75rem; }
        .vazio { font-style: italic; color: var(--suave); }

        .painel { border: 1px solid var(--borda-suave); border-radius: var(--raio); padding: 0.75rem 1rem 1rem; margin: 1rem 0; }
        .painel > h2:first-child { margin-top: 0; font-size: 1.1rem; }
        .indice { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
        .indice a { display: inline-block; padding: 0.35rem 0; min-height: 44px; line-height: 2; }

        .campo-form { margin: 0 0 0.9rem; min-width: 0; }
        .campo-form label, .filtro label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
        .opcional { font-weight: 400; color: var(--suave); }
        input, select, textarea {
          font: inherit; width: 100%; max-width: 100%; padding: 0.5rem 0.6rem; border: 1px solid var(--borda);
          border-radius: var(--raio); background: #fff; color: var(--texto); min-height: 44px;
        }
        textarea { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.875rem; resize: vertical; }
        [aria-invalid="true"] { border-color: var(--perigo); border-width: 2px; }
        .erro-do-campo { color: var(--perigo); font-weight: 600; font-size: 0.9rem; margin: 0.25rem 0 0; }
        .erro-do-campo:empty { display: none; }
        .filtro { margin: 1.25rem 0 0.5rem; max-width: 36rem; }

        .botao {
          font: inherit; font-weight: 600; min-height: 44px; padding: 0.45rem 1.2rem; border-radius: var(--raio); cursor: pointer;
          background: var(--primaria); color: #fff; border: 2px solid var(--primaria);
        }
        .botao:hover { background: var(--primaria-escura); border-color: var(--primaria-escura); }
        .botao:disabled { opacity: 0.6; cursor: progress; }
        .botao-secundario { background: #fff; color: var(--primaria); margin-top: 0.5rem; }
        .botao-secundario:hover { background: var(--info-fundo); color: var(--primaria-escura); }

        .grupo { margin-top: 2rem; }
        .grupo > h2 { margin-bottom: 0.25rem; }
        .op { border: 1px solid var(--borda-suave); border-radius: var(--raio); margin: 0.5rem 0; background: var(--fundo); }
        .op[open] { border-color: var(--borda); }
        .op > summary {
          cursor: pointer; padding: 0.6rem 0.75rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.6rem;
          list-style-position: outside; min-height: 44px;
        }
        .op > summary::marker { color: var(--suave); }
        .op > summary:hover { background: var(--fundo-suave); }
        .metodo { display: inline-block; min-width: 4.2rem; text-align: center; font-weight: 700; font-size: 0.8rem; letter-spacing: 0.03em; padding: 0.1rem 0.4rem; border-radius: 4px; color: #fff; }
        .metodo-get { background: #0b5cad; }
        .metodo-post { background: #1e6b34; }
        .metodo-put { background: #7a4a00; }
        .metodo-patch { background: #5b3a99; }
        .metodo-delete { background: #b3261e; }
        .caminho { font-weight: 600; }
        .resumo { flex-basis: 100%; color: var(--suave); }
        .selo { font-size: 0.8rem; font-weight: 600; border: 1px solid; border-radius: 999px; padding: 0 0.5rem; color: var(--primaria-escura); background: var(--info-fundo); }
        .selo-admin { color: var(--aviso); background: var(--aviso-fundo); }
        @media (min-width: 48rem) {
          .resumo { flex-basis: auto; flex: 1; }
        }
        .op-corpo { padding: 0 0.75rem 1rem; border-top: 1px solid var(--borda-suave); }
        .acesso { margin-top: 0.75rem; font-weight: 600; }

        .esquema { list-style: none; margin: 0.25rem 0; padding: 0; }
        .esquema > li { padding: 0.3rem 0 0.3rem 0.6rem; border-left: 2px solid var(--borda-suave); margin: 0.2rem 0; }
        .interior { margin-left: 0.9rem; }
        .campo { font-weight: 700; }
        .tipo { color: var(--primaria-escura); font-size: 0.9em; }
        .obrigatorio { font-size: 0.85rem; color: var(--perigo); }
        .regras { display: block; font-size: 0.875rem; }
        .interior > p.regras { margin: 0.15rem 0; }
        .descricao { font-size: 0.95rem; }
        .valores { display: block; font-size: 0.875rem; }
        details.valores > summary, .esquema-resposta > summary { cursor: pointer; color: var(--primaria); min-height: 32px; }
        .variantes { margin: 0.5rem 0; }
        .respostas { padding-left: 1.25rem; margin: 0.25rem 0; }
        .respostas > li { margin: 0.2rem 0; }
        .erros { list-style: none; padding: 0; margin: 0.15rem 0 0; display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; font-size: 0.9rem; }
        .status { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
        .status-2xx { color: var(--sucesso); }
        .status-4xx, .status-5xx { color: var(--perigo); }
        .rotulo { font-weight: 600; margin: 0.75rem 0 0.25rem; }
        pre.json {
          background: var(--fundo-suave); border: 1px solid var(--borda-suave); border-radius: var(--raio); padding: 0.6rem 0.75rem;
          margin: 0.25rem 0 0.75rem; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; font-size: 0.85rem;
        }

        .experimentar { background: var(--fundo-suave); border-radius: var(--raio); padding: 0.75rem; max-width: 48rem; }
        .experimentar > .botao[type="submit"] { margin-top: 0.25rem; }
        .resposta:empty { display: none; }
        .resposta { margin-top: 1rem; background: var(--fundo); border: 1px solid var(--borda-suave); border-radius: var(--raio); padding: 0.75rem; }
        .status-linha { margin-bottom: 0.5rem; }
        .status-linha.sucesso strong { color: var(--sucesso); }
        .status-linha.falha strong { color: var(--perigo); }
        .cabecalhos { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.1rem 0.75rem; margin: 0 0 0.75rem; font-size: 0.875rem; }
        .cabecalhos dt { font-weight: 600; }
        .cabecalhos dd { margin: 0; }
        @media (max-width: 30rem) {
          .cabecalhos { grid-template-columns: minmax(0, 1fr); }
          .cabecalhos dd { margin-bottom: 0.25rem; }
        }
        """#
}
