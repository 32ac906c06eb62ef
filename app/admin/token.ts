/**
 * The admin's access token and the authenticated calls that carry it (spec section 6: the token
 * lives in the browser's local storage and goes out as `Authorization: Bearer …`; logged-in
 * state is judged by its presence).
 *
 * Browser only: on the server every read answers "no token", so no admin page can render admin
 * data there. Components follow the token with `useSyncExternalStore(subscribeToken, getToken,
 * () => null)`; a change in another tab (log-out, log-in) reaches them through the `storage`
 * event.
 *
 * A 401 from any admin call means the token is missing, expired or revoked: `adminFetch` clears
 * it (with the server's message as the reason), and the admin layout, which follows the token,
 * sends the visitor to /login.
 */

export const TOKEN_KEY = 'boostly.admin.token';

export const NO_TOKEN_MESSAGE = 'No access token found.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';
export const NETWORK_ERROR_MESSAGE = 'Could not reach the store. Please check your connection and try again.';

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

/** The reply envelope of the admin API; list calls add count, totalPages and currentPage. */
export interface AdminEnvelope<T> {
  isSuccessful: boolean;
  message: string;
  data?: T;
  count?: number;
  totalPages?: number;
  currentPage?: number;
  /** False when `count` is an estimate (a keyword with many matches). */
  countExact?: boolean;
}

/** An admin reply with its HTTP status. */
export type AdminReply<T> = AdminEnvelope<T> & { httpStatus: number };

export class AdminApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when no answer arrived (offline, blocked). */
    readonly status: number,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** True for the error `adminFetch` throws after a 401: the visitor is already on the way to /login. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof AdminApiError && error.status === 401;
}

export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/**
 * `fetch` with the bearer token. Answers the raw response (for downloads); a 401 clears the
 * token and throws. Without a token nothing is sent: that is a 401 already.
 */
export async function adminFetchRaw(path: string, init: RequestInit = {}): Promise<Response> {
  const token = getToken();
  // No token: nothing to clear, and the guard already follows the token store to /login. Calling
  // clearToken here would erase the reason ("session expired") an earlier 401 left for the login
  // page when a second request races the redirect.
  if (!token) throw new AdminApiError(NO_TOKEN_MESSAGE, 401);
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');

  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, cache: 'no-store' });
  } catch (error) {
    if (isAbort(error)) throw error;
    console.error(`${init.method ?? 'GET'} ${path} failed`, error);
    throw new AdminApiError(NETWORK_ERROR_MESSAGE, 0);
  }
  if (response.status === 401) {
    let message = SESSION_EXPIRED_MESSAGE;
    try {
      const body = (await response.json()) as Partial<AdminEnvelope<unknown>>;
      if (typeof body.message === 'string' && body.message) message = body.message;
    } catch {
      // Keep the default message.
    }
    // Only clear what this call was sent with: a fresh log-in in another tab stays.
    if (getToken() === token) clearToken(message);
    throw new AdminApiError(message, 401);
  }
  return response;
}

/**
 * An authenticated JSON call. Answers the envelope whatever `isSuccessful` says (callers word
 * their own failures, e.g. the reorder toasts); throws on 401 (after clearing the token), on a
 * network failure and on a reply that is not an envelope.
 */
export async function adminFetch<T = unknown>(path: string, init: RequestInit = {}): Promise<AdminReply<T>> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  const response = await adminFetchRaw(path, { ...init, headers });
  let body: AdminEnvelope<T> | null = null;
  try {
    body = (await response.json()) as AdminEnvelope<T>;
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  if (!body || typeof body !== 'object' || typeof body.isSuccessful !== 'boolean') {
    throw new AdminApiError(
      `The store answered with an unexpected reply (HTTP ${response.status}). Please try again.`,
      response.status,
    );
  }
  if (!response.ok && body.isSuccessful) body.isSuccessful = false;
  return { ...body, message: typeof body.message === 'string' ? body.message : '', httpStatus: response.status };
}

/** Like `adminFetch`, but an unsuccessful reply throws with the server's message. */
export async function adminData<T>(path: string, init: RequestInit = {}): Promise<AdminReply<T>> {
  const reply = await adminFetch<T>(path, init);
  if (!reply.isSuccessful)
    throw new AdminApiError(reply.message || `Request failed (HTTP ${reply.httpStatus})`, reply.httpStatus);
  return reply;
}

/** A JSON POST body for `adminFetch`. */
export function jsonPost(payload: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) };
}
