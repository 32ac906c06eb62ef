/**
 * Browser calls to the store's JSON API. Every reply is the envelope `{ isSuccessful, message,
 * data }`; a reply that is not successful becomes an `ApiError` carrying the server's message
 * and HTTP status, so screens can show the message as it is (spec section 8).
 */

export interface Envelope<T> {
  isSuccessful: boolean;
  message: string;
  data?: T;
}

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got an answer (offline, blocked, aborted). */
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Shown when the network fails before any reply arrives. */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the store. Please check your connection and try again.';

async function request<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (error) {
    // An abort is not a failure to show: let the caller see it for what it is.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error(`${init.method ?? 'GET'} ${path} failed`, error);
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }

  let body: Envelope<T> | null = null;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    body = null;
  }
  if (!body || typeof body !== 'object') {
    throw new ApiError(
      `The store answered with an unexpected reply (HTTP ${response.status}). Please try again.`,
      response.status,
    );
  }
  if (!response.ok || !body.isSuccessful) {
    throw new ApiError(body.message || `Request failed (HTTP ${response.status})`, response.status);
  }
  return body.data as T;
}

export function postJson<T>(path: string, payload: unknown, signal?: AbortSignal): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: signal ?? null,
  });
}

export function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return request<T>(path, { method: 'GET', signal: signal ?? null });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
