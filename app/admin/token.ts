/**
 * The admin's access token and the API client that carries it (spec section 6: the token
 * lives in the browser's local storage and goes out as `Authorization: Bearer …`; logged-in
 * state is judged by its presence).
 *
 * Browser only: on the server every read answers "no token", so no admin page can render admin
 * data there. Components follow the token with `useSyncExternalStore(subscribeToken, getToken,
 * () => null)`; a change in another tab (log-out, log-in) reaches them through the `storage`
 * event.
 *
 * A 401 from any admin call means the token is missing, expired or revoked: `adminApi` clears
 * it (with the server's message as the reason), and the admin layout, which follows the token,
 * sends the visitor to /login.
 */
import { ApiError, createApiClient } from '../api/client.ts';

export const TOKEN_KEY = 'boostly.admin.token';

export const NO_TOKEN_MESSAGE = 'No access token found.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

type Listener = () => void;
const listeners = new Set<Listener>();
/** Why the token was last cleared, when it was not the admin's own log-out. */
let clearReason: string | null = null;

function storage(): Storage | null {
  if (typeof window === 'undefined') return null;
  try {
    return window.localStorage;
  } catch {
    // Storage disabled (privacy settings): behave as logged out.
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  try {
    return storage()?.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  clearReason = null;
  try {
    storage()?.setItem(TOKEN_KEY, token);
  } finally {
    notify();
  }
}

/** Forgets the token. `reason` (e.g. the server's "session expired") is shown on the login page. */
export function clearToken(reason: string | null = null): void {
  clearReason = reason;
  try {
    storage()?.removeItem(TOKEN_KEY);
  } finally {
    notify();
  }
}

/**
 * The reason given to the last `clearToken`, until a log-in or `takeClearReason`. Changes are
 * announced to `subscribeToken` listeners, so it can be read with `useSyncExternalStore`.
 */
export function getClearReason(): string | null {
  return clearReason;
}

/** The reason given to the last `clearToken`, once: the admin layout passes it on to the login page. */
export function takeClearReason(): string | null {
  const reason = clearReason;
  clearReason = null;
  // Readers of `getClearReason` must learn that it is gone.
  if (reason !== null) notify();
  return reason;
}

/** For `useSyncExternalStore`: this tab's changes and other tabs' (the `storage` event). */
export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The admin API client: the store's one API client (app/api/client.ts) with the bearer token.
 * A 401 to a call sent with a token clears that token (with the server's message as the
 * reason), unless another tab has logged in since; without a token nothing is sent.
 */
export const adminApi = createApiClient({
  cache: 'no-store',
  bearer: {
    token: getToken,
    missingTokenMessage: NO_TOKEN_MESSAGE,
    unauthorizedMessage: SESSION_EXPIRED_MESSAGE,
    // No token at all leaves nothing to clear: clearing would erase the reason ("session
    // expired") an earlier 401 left for the login page when a second request races the redirect.
    onUnauthorized: (message, token) => {
      if (getToken() === token) clearToken(message);
    },
  },
});

/** True for a refused token: the token is gone and the admin layout is on its way to /login. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
