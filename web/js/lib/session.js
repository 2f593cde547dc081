// The signed-in user's token lives in sessionStorage:
// - it survives a reload and links opened in the same tab (memory alone would log people out on
//   every F5);
// - it is gone when the tab closes and is not shared with other tabs, which matters on the shared
//   computers of a coworking reception (localStorage would keep it on disk for the next person);
// - like any storage readable by scripts it is exposed to XSS, so the app never builds markup from
//   data (dom.js) and the page forbids inline and foreign scripts (Content-Security-Policy).
// The JWT also expires on the server (`expiraEm`); an expired one is dropped here before use.

const KEY = 'coworkflow.sessao';
const listeners = new Set();

function read() {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw);
    if (!value?.token || (value.expiraEm && Date.parse(value.expiraEm) <= Date.now())) {
      sessionStorage.removeItem(KEY);
      return null;
    }
    return value;
  } catch {
    return null;
  }
}

let current = read();

export const session = {
  /** {token, expiraEm, usuario: {id, nome, email, papel}} or null. */
  get current() {
    if (current?.expiraEm && Date.parse(current.expiraEm) <= Date.now()) this.clear();
    return current;
  },
  get token() { return this.current?.token ?? null; },
  get usuario() { return this.current?.usuario ?? null; },
  get signedIn() { return Boolean(this.current); },
  get isAdmin() { return this.current?.usuario?.papel === 'admin'; },

  save(value) {
    current = value;
    try { sessionStorage.setItem(KEY, JSON.stringify(value)); } catch { /* private mode: memory only */ }
    listeners.forEach((fn) => fn(current));
  },

  clear() {
    current = null;
    try { sessionStorage.removeItem(KEY); } catch { /* ignore */ }
    listeners.forEach((fn) => fn(current));
  },

  onChange(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};
