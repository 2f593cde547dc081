// An operator finds a member by (part of) their e-mail: a search field with its "Buscar" button,
// what the search found, and a list to choose from (an e-mail typed in full that only one account
// has needs no list). Used where the reception acts for someone: the visitor who came unannounced
// (whose host it is) and the booking made for a member.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { field, fieldError, busy } from './ui.js';
import { describeError } from './errors.js';

/**
 * buscaDeMembro({form, signal, busca: {name, label, hint?, optional?, oque?, verbo?}, escolha: {name, label}, quem, onChange?})
 * → {node, escolhido({opcional}), esquecer()}
 *
 * `quem` names the member in the messages ("o membro que o visitante veio ver"). `escolhido()`
 * resolves to the chosen {id, nome, email}, or null once the form says what is missing (looking
 * them up first if needed); with `opcional`, to undefined when nothing was typed. `onChange` runs
 * whenever the choice may have changed (another e-mail typed, another member chosen).
 */
export function buscaDeMembro({ form, signal, busca: b, escolha: e, quem, onChange = () => {} }) {
  let encontrados = [];
  let buscado = null; // the term whose results the list shows
  const busca = field({
    label: b.label, name: b.name, type: 'search', hint: b.hint, optional: b.optional,
    attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none' },
  });
  const input = busca.querySelector('input');
  const buscar = h('button', { type: 'button', class: 'button button--secondary' }, 'Buscar',
    h('span', { class: 'visually-hidden' }, ` ${b.oque ?? 'membro'}`));
  // The button beside the input, the field's error under both.
  const linha = h('div', { class: 'walk-in__search' });
  input.replaceWith(linha);
  linha.append(input, buscar);
  const status = h('p', { class: 'small walk-in__status', 'aria-live': 'polite' });
  const escolha = field({ label: e.label, name: e.name, type: 'select', options: [['', 'Escolha o membro…']] });
  escolha.hidden = true;
  const lista = escolha.querySelector('select');

  /** Clears the error a field of the form shows (the others keep theirs). */
  function semErro(campo) {
    campo.querySelector('[aria-invalid]')?.removeAttribute('aria-invalid');
    const slot = campo.querySelector('.field__error');
    if (slot) slot.textContent = '';
  }

  /** Shows the accounts whose e-mail has the typed part (active ones); false when it could not look. */
  async function procurar() {
    const termo = input.value.trim();
    if (!termo) {
      fieldError(form, b.name, `Digite parte do e-mail d${quem}.`);
      return false;
    }
    [busca, escolha].forEach(semErro);
    const restore = busy(buscar, 'Buscando…');
    try {
      const page = await api('/api/admin/usuarios', { query: { email: termo, pagina: 1 }, signal });
      encontrados = page.itens.filter((u) => u.ativo);
      buscado = termo;
      replace(lista, h('option', { value: '' }, 'Escolha o membro…'),
        encontrados.map((u) => h('option', { value: u.id }, `${u.nome} — ${u.email}`)));
      if (encontrados.length === 1) lista.value = encontrados[0].id;
      escolha.hidden = encontrados.length === 0;
      const n = encontrados.length;
      replace(status, n
        ? `${n} ${n === 1 ? 'membro encontrado' : 'membros encontrados'}${page.total > page.itens.length ? ' (só os primeiros: refine a busca)' : ''}.`
        : 'Nenhum membro ativo com esse e-mail.');
      onChange();
      return true;
    } catch (error) {
      if (error?.name === 'AbortError') return false;
      fieldError(form, b.name, describeError(error));
      return false;
    } finally {
      restore();
    }
  }

  function esquecer() {
    encontrados = [];
    buscado = null;
    replace(lista, h('option', { value: '' }, 'Escolha o membro…'));
    escolha.hidden = true;
    replace(status);
  }

  buscar.addEventListener('click', async () => {
    if (await procurar()) (encontrados.length ? lista : input).focus();
  });
  input.addEventListener('keydown', (event) => {
    // Enter in the search looks the member up instead of sending the form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    buscar.click();
  });
  // Another e-mail typed: the list shown is of the last one, so it goes.
  input.addEventListener('input', () => {
    if (buscado !== null && input.value.trim() !== buscado) esquecer();
    onChange();
  });
  lista.addEventListener('change', () => {
    if (lista.value) semErro(escolha);
    onChange();
  });

  /** The chosen member, or null once the form says what is missing (looking them up first if needed). */
  async function escolhido({ opcional = false } = {}) {
    if (lista.value) return encontrados.find((u) => u.id === lista.value) ?? null;
    if (opcional && !input.value.trim()) return undefined;
    const escolher = `Escolha na lista ${quem}.`;
    if (!escolha.hidden) { fieldError(form, e.name, escolher); return null; }
    if (!input.value.trim()) { fieldError(form, b.name, `Busque pelo e-mail ${quem}.`); return null; }
    if (!await procurar()) return null;
    const digitado = input.value.trim().toLowerCase();
    if (encontrados.length === 1 && encontrados[0].email.toLowerCase() === digitado) return encontrados[0];
    // Said once, next to the field (not also under it as the search's result).
    if (!encontrados.length) {
      replace(status);
      fieldError(form, b.name, 'Nenhum membro ativo com esse e-mail. Confira e busque de novo.');
    }
    else fieldError(form, e.name, encontrados.length === 1 ? `Confira o membro encontrado e ${b.verbo ?? 'envie'} de novo.` : escolher);
    return null;
  }

  return {
    node: h('div', { class: 'walk-in__host' }, busca, status, escolha),
    escolhido,
    esquecer,
  };
}
