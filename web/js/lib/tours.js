// Tours: a prospect (no account) books a guided visit of a unit on the public page (/tour), keeps
// the link to it (/tour/<id>) to see or cancel it, and the team runs them (/admin/tours). The
// pieces both sides share: when a tour happens in words, the prospect's fields (the team's form
// for a phone lead asks the same) and their checks, and the free times of a unit's day.

import { api } from './api.js';
import { h } from './dom.js';
import { TOUR_INTERESSES } from './labels.js';
import { DEFAULT_TZ, dateLong, dateTime, localDate, time } from './format.js';
import { field, val, fieldError } from './ui.js';

/** The server's limits (TourNovo): texts and people. */
export const NOME_MIN = 2;
export const NOME_MAX = 120;
export const TELEFONE_MAX = 30;
export const EMPRESA_MAX = 120;
export const MENSAGEM_MAX = 1000;
export const PESSOAS_MAX = 50;
export const NOTA_MAX = 1000;
export const MOTIVO_MAX = 300;
/** How far ahead a tour may be booked (the server lists slots up to 60 days ahead). */
export const DIAS_A_FRENTE = 60;

const TELEFONE = /^[0-9 +()-]*$/;

/**
 * When a tour happens in its unit's zone: "terça-feira, 24 de novembro de 2026, das 10:00 às
 * 10:30"; across midnight, both dates.
 */
export function quandoDoTour(t, tz = DEFAULT_TZ) {
  const inicio = Date.parse(t.inicio);
  const fim = Date.parse(t.fim);
  if (localDate(inicio, tz) === localDate(fim - 1, tz)) {
    return `${dateLong(localDate(inicio, tz))}, das ${time(t.inicio, tz)} às ${time(t.fim, tz)}`;
  }
  return `${dateTime(t.inicio, tz)} até ${dateTime(t.fim, tz)}`;
}

/** A unit's address (the API's `Endereco`) on one line: "Rua Augusta, 500 – sala 2 — Consolação, São Paulo/SP". */
export function enderecoEmUmaLinha(e) {
  if (!e) return '';
  const rua = `${e.logradouro ?? ''}${e.numero ? `, ${e.numero}` : ''}${e.complemento ? ` – ${e.complemento}` : ''}`;
  const cidade = [e.bairro, [e.cidade, e.uf].filter(Boolean).join('/')].filter(Boolean).join(', ');
  return [rua, cidade].filter(Boolean).join(' — ');
}

/** Whether a tour's time has come (a prospect can no longer cancel it then). */
export function tourIniciado(t, now = Date.now()) {
  return Date.parse(t.inicio) <= now;
}

/**
 * The free times of a unit's day: GET /api/tours/horarios (`HorariosDeTour`), from an hour on;
 * for the team (`equipe`), GET /api/admin/tours/horarios, every time not begun (it books a
 * prospect at the desk with no notice).
 */
export function horariosDoDia(unidadeId, data, { signal, equipe = false } = {}) {
  return api(equipe ? '/api/admin/tours/horarios' : '/api/tours/horarios', { query: { unidade: unidadeId, data }, signal });
}

/**
 * The prospect's fields, named as the API names them (a 422's `campo` lands next to its field):
 * name, e-mail, phone and company, what they look for, how many come, a message. `equipe` words
 * the hints for the team booking on someone's behalf.
 */
export function camposDoVisitante({ equipe = false } = {}) {
  return [
    h('div', { class: 'form__row' },
      field({
        label: 'Nome', name: 'nome', required: true,
        attrs: { autocomplete: equipe ? 'off' : 'name', maxlength: String(NOME_MAX) },
      }),
      field({
        label: 'E-mail', name: 'email', type: 'email', required: true,
        hint: equipe ? 'A pessoa recebe a confirmação por e-mail, com o link para ver ou cancelar.' : 'Enviamos a confirmação para ele, com o link para ver ou cancelar.',
        attrs: { autocomplete: equipe ? 'off' : 'email', inputmode: 'email', spellcheck: 'false' },
      })),
    h('div', { class: 'form__row' },
      field({
        label: 'Telefone', name: 'telefone', type: 'tel', optional: true,
        hint: equipe ? 'Com DDD.' : 'Com DDD, se quiser que a equipe possa ligar.',
        attrs: { autocomplete: equipe ? 'off' : 'tel', inputmode: 'tel', maxlength: String(TELEFONE_MAX) },
      }),
      field({
        label: 'Empresa', name: 'empresa', optional: true,
        attrs: { autocomplete: equipe ? 'off' : 'organization', maxlength: String(EMPRESA_MAX) },
      })),
    h('div', { class: 'form__row' },
      field({
        label: 'Interesse', name: 'interesse', type: 'select', optional: true,
        options: [['', equipe ? 'Não informado' : 'Ainda não sei'], ...Object.entries(TOUR_INTERESSES)],
      }),
      field({
        label: 'Quantas pessoas vêm', name: 'pessoas', type: 'number', value: '1', required: true,
        hint: `De 1 a ${PESSOAS_MAX}${equipe ? '.' : ', contando você.'}`,
        attrs: { min: '1', max: String(PESSOAS_MAX), step: '1', inputmode: 'numeric' },
      })),
    field({
      label: 'Mensagem', name: 'mensagem', type: 'textarea', optional: true,
      hint: equipe ? 'O que a pessoa contou: quantos são, quando pretendem começar…' : 'Algo que a equipe deva saber: quantas pessoas são na sua equipe, quando pretende começar…',
      attrs: { maxlength: String(MENSAGEM_MAX), rows: '3' },
    }),
  ];
}

/**
 * The prospect's part of a `TourNovo` from the form (blank optional fields left out), or null
 * once a field was marked wrong (fieldError: the message next to it, the focus in it).
 */
export function dadosDoVisitante(form) {
  const nome = val(form, 'nome');
  const email = val(form, 'email');
  const telefone = val(form, 'telefone');
  const empresa = val(form, 'empresa');
  const interesse = val(form, 'interesse');
  const pessoas = val(form, 'pessoas');
  const mensagem = val(form, 'mensagem');
  const errado = (campo, texto) => { fieldError(form, campo, texto); return null; };
  if (nome.length < NOME_MIN) return errado('nome', 'Informe o nome de quem vem.');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return errado('email', 'Informe um e-mail válido, como nome@exemplo.com.');
  if (!TELEFONE.test(telefone)) return errado('telefone', 'Use só números, espaços e + ( ) -, como (11) 91234-5678.');
  if (!/^\d+$/.test(pessoas) || Number(pessoas) < 1 || Number(pessoas) > PESSOAS_MAX) {
    return errado('pessoas', `Informe quantas pessoas vêm: de 1 a ${PESSOAS_MAX}.`);
  }
  const body = { nome, email, pessoas: Number(pessoas) };
  if (telefone) body.telefone = telefone;
  if (empresa) body.empresa = empresa;
  if (interesse) body.interesse = interesse;
  if (mensagem) body.mensagem = mensagem;
  return body;
}

/** Clears the prospect's fields after a booking (the people back to 1). */
export function limparVisitante(form) {
  for (const nome of ['nome', 'email', 'telefone', 'empresa', 'interesse', 'mensagem']) {
    const el = form.elements.namedItem(nome);
    if (el) el.value = '';
  }
  const pessoas = form.elements.namedItem('pessoas');
  if (pessoas) pessoas.value = '1';
}
