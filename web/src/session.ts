// The session token: in memory, mirrored to sessionStorage so a reload of the
// tab keeps it; never in localStorage (shared by tabs, kept after the browser
// closes) and never in a cookie (no request carries it unless the console adds
// it, so there is nothing for a cross-site request to ride on: no CSRF).
const KEY = 'berth.token';
let token: string = sessionStorage.getItem(KEY) ?? '';
const listeners = new Set<() => void>();

export function currentToken(): string {
  return token;
}

export function setToken(value: string): void {
  token = value.trim();
  if (token) sessionStorage.setItem(KEY, token);
  else sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
