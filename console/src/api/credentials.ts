// The user's credentials for the API, as the console keeps them for the tab's life (sessionStorage): HTTP Basic
// (user and password) or a Brook API key (Bearer). Every request the console makes carries the header built here.
export type Credentials = { kind: 'basic'; user: string; password: string } | { kind: 'apiKey'; key: string };

const STORAGE_KEY = 'brook-console-credentials';

/** The Authorization header value for `credentials`, or null for none. */
export function authorizationHeader(credentials: Credentials | null): string | null {
  if (credentials === null) return null;
  if (credentials.kind === 'apiKey') return `Bearer ${credentials.key}`;
  const bytes = new TextEncoder().encode(`${credentials.user}:${credentials.password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** A short name of who is signed in, for the header bar. */
export function principalLabel(credentials: Credentials | null): string | null {
  if (credentials === null) return null;
  return credentials.kind === 'basic' ? credentials.user : `API key ${credentials.key.split('_')[1] ?? ''}`;
}

export function loadCredentials(storage: Pick<Storage, 'getItem'>): Credentials | null {
  const stored = storage.getItem(STORAGE_KEY);
  if (stored === null) return null;
  try {
    const parsed = JSON.parse(stored) as Credentials;
    if (parsed.kind === 'basic' && typeof parsed.user === 'string' && typeof parsed.password === 'string')
      return parsed;
    if (parsed.kind === 'apiKey' && typeof parsed.key === 'string') return parsed;
  } catch {
    // a damaged entry counts as none
  }
  return null;
}

export function storeCredentials(storage: Pick<Storage, 'setItem' | 'removeItem'>, value: Credentials | null): void {
  if (value === null) storage.removeItem(STORAGE_KEY);
  else storage.setItem(STORAGE_KEY, JSON.stringify(value));
}
