/**
 * The one browser client for the store's JSON API (spec section 3). Every reply is the envelope
 * `{ isSuccessful, message, data, errors? }`; a reply that is not successful becomes an
 * `ApiError` with the HTTP status, the server's message (shown as it is, spec section 8) and the
 * per-field validation errors, so forms put each message under its own field.
 *
 * Types come from the zod contracts in core (`z.infer`): `api.post<CreatedOrder>('/api/order',
 * payload satisfies CreateOrderPayload)`. The admin screens make their own client with a bearer
 * token provider (`createApiClient({ bearer })`).
 */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One rejected field of a payload: `field` is its path joined with '.', e.g. 'email'. */
export interface FieldError {
  field: string;
  message: string;
}

export interface Envelope<TData> {
  isSuccessful: boolean;
  message: string;
  data?: TData;
  errors?: FieldError[];
}

/** Shown when the network fails before any reply arrives. */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the store. Please check your connection and try again.';

const unexpectedReplyMessage = (status: number) =>
  `The store answered with an unexpected reply (HTTP ${status}). Please try again.`;

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got an answer (offline, blocked). */
    readonly status: number,
    /** The fields the server refused, each with its message (empty when the refusal is not about a field). */
    readonly fieldErrors: readonly FieldError[] = [],
    /** The whole reply, for calls whose refusals carry more than a message (e.g. the login's `isVerified`). */
    readonly reply: Readonly<Record<string, unknown>> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's message for `field`, if it refused that field. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors.find((error) => error.field === field)?.message;
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

type QueryValue = string | number | boolean | null | undefined;

interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Added to the path as a query string; null and undefined values are left out. */
  query?: Readonly<Record<string, QueryValue>> | undefined;
}

interface SendOptions<TBody> extends RequestOptions {
  body?: TBody;
}

/** Sends `Authorization: Bearer …` with every request (the admin API, spec section 6). */
interface BearerAuth {
  /** The token, read per request. Without one nothing is sent: the call fails as a 401 at once. */
  token: () => string | null;
  /** The message of that 401. */
  missingTokenMessage: string;
  /** The message of a 401 whose reply has none. */
  unauthorizedMessage: string;
  /** A request sent with `token` was answered 401 (expired or revoked): e.g. forget the token. */
  onUnauthorized?: (message: string, token: string) => void;
}

interface ApiClientOptions {
  bearer?: BearerAuth;
  /** The browser cache mode for every request (`no-store` for personal or admin calls). */
  cache?: RequestCache;
  /** Prefixed to every path; the browser needs none (same origin). */
  baseUrl?: string;
  fetch?: typeof fetch;
}

interface ApiClient {
  get<TData>(path: string, options?: RequestOptions): Promise<TData>;
  post<TData, TBody = unknown>(path: string, body: TBody, options?: RequestOptions): Promise<TData>;
  patch<TData, TBody = unknown>(path: string, body: TBody, options?: RequestOptions): Promise<TData>;
  delete<TData>(path: string, options?: RequestOptions): Promise<TData>;
  /**
   * The whole successful reply, not only `data`: for calls that answer more than the envelope
   * (the login's `access_token`, the admin list's `count`). Failures throw like the others.
   */
  send<TReply extends { message: string }, TBody = unknown>(
    method: HttpMethod,
    path: string,
    options?: SendOptions<TBody>,
  ): Promise<TReply>;
  /** The response itself, unread (downloads), after the token, network and 401 handling. */
  raw(method: HttpMethod, path: string, options?: SendOptions<unknown>): Promise<Response>;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The reply's `errors`, keeping only well-formed entries. */
function fieldErrorsOf(reply: Record<string, unknown>): FieldError[] {
  const { errors } = reply;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const error = asRecord(entry);
    return error && typeof error.field === 'string' && typeof error.message === 'string'
      ? [{ field: error.field, message: error.message }]
      : [];
  });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch (error) {
    // An abort while the body streams in is the caller's, not a bad reply.
    if (isAbort(error)) throw error;
    return null;
  }
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { bearer, cache } = options;
  const baseUrl = options.baseUrl ?? '';

  async function raw(method: HttpMethod, path: string, request: SendOptions<unknown> = {}): Promise<Response> {
    const headers = new Headers({ accept: 'application/json' });
    const token = bearer ? bearer.token() : null;
    if (bearer) {
      if (!token) throw new ApiError(bearer.missingTokenMessage, 401);
      headers.set('authorization', `Bearer ${token}`);
    }
    const hasBody = request.body !== undefined;
    // A FormData body goes out as multipart (file uploads): the browser sets the content type
    // with its boundary. Anything else is JSON.
    const body = request.body instanceof FormData ? request.body : hasBody ? JSON.stringify(request.body) : undefined;
    if (typeof body === 'string') headers.set('content-type', 'application/json');

    const url = withQuery(path, request.query);
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(`${baseUrl}${url}`, {
        method,
        headers,
        signal: request.signal ?? null,
        ...(body !== undefined ? { body } : {}),
        ...(cache ? { cache } : {}),
      });
    } catch (error) {
      // An abort is not a failure to show: let the caller see it for what it is.
      if (isAbort(error)) throw error;
      console.error(`${method} ${url} failed`, error);
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
    }

    if (bearer && token && response.status === 401) {
      const reply = asRecord(await readJson(response));
      const message = typeof reply?.message === 'string' && reply.message ? reply.message : bearer.unauthorizedMessage;
      bearer.onUnauthorized?.(message, token);
      throw new ApiError(message, 401, [], reply);
    }
    return response;
  }

  async function send<TReply>(method: HttpMethod, path: string, request: SendOptions<unknown> = {}): Promise<TReply> {
    const response = await raw(method, path, request);
    const reply = asRecord(await readJson(response));
    if (!reply || typeof reply.isSuccessful !== 'boolean') {
      throw new ApiError(unexpectedReplyMessage(response.status), response.status);
    }
    if (!response.ok || !reply.isSuccessful) {
      const message =
        typeof reply.message === 'string' && reply.message ? reply.message : `Request failed (HTTP ${response.status})`;
      throw new ApiError(message, response.status, fieldErrorsOf(reply), reply);
    }
    return { ...reply, message: typeof reply.message === 'string' ? reply.message : '' } as TReply;
  }

  async function data<TData>(method: HttpMethod, path: string, request: SendOptions<unknown>): Promise<TData> {
    // The contract of each route says what `data` holds; the envelope was checked above.
    const reply = await send<Envelope<TData>>(method, path, request);
    return reply.data as TData;
  }

  return {
    get: (path, request = {}) => data('GET', path, request),
    post: (path, body, request = {}) => data('POST', path, { ...request, body }),
    patch: (path, body, request = {}) => data('PATCH', path, { ...request, body }),
    delete: (path, request = {}) => data('DELETE', path, request),
    send: (method, path, request) => send(method, path, request),
    raw,
  };
}

/** The public store API (no token): the order page, target checks, order history, admin login. */
export const api = createApiClient();
