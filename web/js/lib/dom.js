// Building DOM without innerHTML: every piece of API data lands in a text node, so nothing a
// user typed (a name, a coupon code) can ever run as markup.

/**
 * h('button', {type: 'button', onclick: fn, class: 'x'}, 'Texto', child, [more])
 * Attributes: `class`, `for`, aria-*, data-*, boolean attributes (true adds, false/null skips),
 * `on<event>` functions become listeners, `dataset` and `style` objects are assigned (custom
 * properties too).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'style') {
      // Custom properties ("--horas") only through setProperty.
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith('--')) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    } else if (key === 'value' && el instanceof HTMLInputElement) {
      // The attribute is the default a form reset returns to; it also sets the current value.
      el.setAttribute('value', String(value));
      el.value = String(value);
    } else if (key === 'value' && ('value' in el)) {
      el.value = value;
    } else if (key === 'checked' || key === 'selected') {
      el[key] = Boolean(value);
      if (value) el.setAttribute(key, '');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element (charts, QR codes): like h(), with attributes set as they are (viewBox, fill…);
 * `on<event>` functions become listeners.
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Appends strings, numbers, nodes and (nested) arrays; skips null, undefined and false. */
export function append(parent, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces every child of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let counter = 0;
/** A unique id for label/aria wiring. */
export function uid(prefix = 'id') {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** An internal link handled by the router (see router.js). */
export function link(href, text, attrs = {}) {
  return h('a', { href, 'data-link': true, ...attrs }, text);
}
