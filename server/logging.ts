/**
 * The server's pino options (server/main.ts, and Fastify's own logger in server/app.ts): no
 * secret reaches a log line (docs/decisions/015-mail-delivery-and-log-secrets.md).
 *
 * - The log formatter replaces the values of fields that hold secrets wherever a log call puts
 *   them (top level, or one or two objects deep such as `req.headers.authorization`):
 *   authorization headers, cookies, passwords, one-time codes, tokens, payment signatures, keys
 *   and secrets. A field called plain `code` is left alone: that is an error code
 *   (`ECONNREFUSED`); a one-time code travels as `otp`.
 * - The request line's `url` keeps its path but blanks the values of query parameters with a
 *   secret-sounding name, so a token in a link never lands in the log.
 * - Request bodies are never logged (the request line has method, url, status and duration), and
 *   mail log lines carry the recipient and subject only: subjects never hold a code.
 */
import { type Logger, type LoggerOptions, pino } from 'pino';
import pinoPretty from 'pino-pretty';

export const REDACTED = '[redacted]';

/** Field names whose values are secrets, wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'newPassword',
  'currentPassword',
  'otp',
  'token',
  'access_token',
  'accessToken',
  'refresh_token',
  'razorpay_signature',
  'x-razorpay-signature',
  'signature',
  'secret',
  'key_secret',
  'keySecret',
  'webhookSecret',
  'webhook_secret',
  'apiKey',
  'api_key',
  'pepper',
  'TOTP_ENCRYPTION_KEY',
  'TOTP_ENCRYPTION_KEY_PREVIOUS',
  'SUPPLIER_KEY_ENCRYPTION_KEY',
  'SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS',
  'html',
  'text',
] as const;

const SECRET_FIELD_SET: ReadonlySet<string> = new Set(SECRET_FIELDS);
/** How deep under a log call's object secret fields are looked for (`req.headers.authorization`). */
const SECRET_DEPTH = 2;

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of `logged` with the secret fields' values replaced, or `logged` itself when it holds
 * none. One pass over the object's own keys, a set lookup each: pino's path-based `redact` with a
 * hundred wildcard paths cost about 85 µs a line, most of a cached page's time (every request logs).
 */
export function redactSecrets<T>(logged: T, depth = 0): T {
  if (!isPlainContainer(logged)) return logged;
  let copy: Record<string, unknown> | unknown[] | null = null;
  for (const key of Object.keys(logged)) {
    const value = (logged as Record<string, unknown>)[key];
    let next = value;
    if (SECRET_FIELD_SET.has(key)) next = value === undefined ? value : REDACTED;
    else if (depth < SECRET_DEPTH && isPlainContainer(value)) next = redactSecrets(value, depth + 1);
    if (next !== value) {
      copy ??= Array.isArray(logged) ? [...logged] : { ...logged };
      (copy as Record<string, unknown>)[key] = next;
    }
  }
  return (copy ?? logged) as T;
}

/** Query parameters whose values are blanked in a logged URL. */
const SECRET_QUERY_PARAM = /(token|code|otp|signature|secret|password|key|session)/i;

/** Paths whose last segment is a secret: the review link's token (decision 039), a refund link's token. */
const SECRET_PATH = /^(\/(?:review|refund)\/)[^/?#]+/;

/** `/path?token=abc&page=2` → `/path?token=[redacted]&page=2`; `/review/<token>` → `/review/[redacted]`. */
export function redactLoggedUrl(logged: string): string {
  const url = logged.replace(SECRET_PATH, `$1${REDACTED}`);
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_QUERY_PARAM.test(decodeURIComponentSafe(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** pino options for the server's logger at `level`. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    formatters: { log: (logged) => redactSecrets(logged) },
    serializers: { url: (logged: unknown) => (typeof logged === 'string' ? redactLoggedUrl(logged) : logged) },
  };
}

/** How long a production log line may wait in the buffer before it is written. */
const LOG_FLUSH_MS = 1000;
/** pino's number for `error`: lines at this level or above are written at once. */
const ERROR_LEVEL = 50;

/**
 * `npm start`'s logger: JSON lines on stdout, written asynchronously in blocks of at least 4 KB
 * (and at least once a second) instead of one synchronous write per line, which took about half
 * of the cached pages' throughput. An error is written at once, and whatever is buffered when the
 * process exits is written before it does (pino flushes its destination on exit).
 */
export function productionLogger(level: string, fd = 1, flushMs = LOG_FLUSH_MS): Logger {
  const destination = pino.destination({ dest: fd, sync: false, minLength: 4096 });
  const flush = () => {
    // A flush while the previous write is still under way has nothing to do yet.
    try {
      destination.flush();
    } catch {
      // Nothing can be reported about a log that cannot be written; the next flush tries again.
    }
  };
  // A write is due at most `flushMs` after the first line buffered since the last one; the
  // timer is the process's own (its buffer is), and exists only while something waits.
  let due: NodeJS.Timeout | null = null;
  const flushSoon = () => {
    due ??= setTimeout(() => {
      due = null;
      flush();
    }, flushMs).unref();
  };
  return pino(
    {
      ...loggerOptions(level),
      hooks: {
        logMethod(args, method, lineLevel) {
          method.apply(this, args);
          if (lineLevel >= ERROR_LEVEL) flush();
          else flushSoon();
        },
      },
    },
    destination,
  );
}

/**
 * `npm run dev`'s logger: one readable line per event (time, level, message, the fields),
 * coloured in a terminal; the same redaction as production, which stays JSON.
 */
export function developmentLogger(level: string, output: NodeJS.WritableStream = process.stdout): Logger {
  const pretty = pinoPretty({
    destination: output,
    colorize: output === process.stdout && process.stdout.isTTY,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    sync: true,
  });
  return pino(loggerOptions(level), pretty);
}
