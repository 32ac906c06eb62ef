/**
 * Cryptomus's signing rules (integrations.md, "Cryptomus"). Requests carry
 * `sign: md5(base64(body) + payment key)` over the exact bytes sent; a webhook carries `sign` inside
 * its JSON body, computed over the rest of the body as Cryptomus's PHP re-encodes it, so we must
 * rebuild PHP's `json_encode` output byte for byte to check it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** md5 hex of (base64(body) + paymentKey): the `sign` of a request body or of a webhook's payload. */
export function cryptomusSign(body: string, paymentKey: string): string {
  return createHash('md5')
    .update(Buffer.from(body, 'utf8').toString('base64') + paymentKey, 'utf8')
    .digest('hex');
}

export interface PhpJsonOptions {
  /**
   * PHP's `JSON_UNESCAPED_UNICODE`: non-ASCII characters are written as themselves instead of
   * `\uXXXX` (U+2028 and U+2029 stay escaped, as PHP keeps them without
   * `JSON_UNESCAPED_LINE_TERMINATORS`). Cryptomus's own verification snippet uses this flag.
   */
  unescapedUnicode?: boolean;
}

/** The escapes PHP writes by name; every other control character becomes `\u00xx`. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function unicodeEscape(codeUnit: number): string {
  return `\\u${codeUnit.toString(16).padStart(4, '0')}`;
}

function phpString(text: string, unescapedUnicode: boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    const code = text.charCodeAt(i);
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) out += named;
    else if (code < 0x20) out += unicodeEscape(code);
    else if (code < 0x80) out += char;
    else if (!unescapedUnicode || code === 0x2028 || code === 0x2029) out += unicodeEscape(code);
    else if (code < 0xd800 || code > 0xdfff) out += char;
    else {
      // An astral character is written whole; a lone surrogate has no UTF-8 form, so it stays escaped.
      const low = text.charCodeAt(i + 1);
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      } else out += unicodeEscape(code);
    }
  }
  return `${out}"`;
}

/**
 * JSON as PHP's `json_encode` writes it with its default flags: `/` escaped as `\/`, every
 * non-ASCII UTF-16 code unit as lowercase `\uXXXX` (so an astral character is its surrogate pair),
 * no spaces, keys in their order. Numbers are written as JSON writes them: Cryptomus sends amounts
 * as strings, so PHP's float spelling (`1.0e+25`) never comes up.
 */
export function phpJsonEncode(value: unknown, options: PhpJsonOptions = {}): string {
  const unescapedUnicode = options.unescapedUnicode ?? false;
  const encode = (item: unknown): string => {
    if (item === null || item === undefined) return 'null';
    if (typeof item === 'boolean') return item ? 'true' : 'false';
    if (typeof item === 'number') return JSON.stringify(item);
    if (typeof item === 'string') return phpString(item, unescapedUnicode);
    if (Array.isArray(item)) return `[${item.map(encode).join(',')}]`;
    if (typeof item === 'object') {
      const members = Object.entries(item as Record<string, unknown>).filter(([, v]) => v !== undefined);
      return `{${members.map(([key, v]) => `${phpString(key, unescapedUnicode)}:${encode(v)}`).join(',')}}`;
    }
    throw new TypeError(`phpJsonEncode cannot encode a ${typeof item}`);
  };
  return encode(value);
}

/** Compares two md5 hex digests in constant time; anything malformed is simply unequal. */
function sameMd5Hex(expected: string, received: string): boolean {
  if (!/^[0-9a-f]{32}$/i.test(received)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(received, 'hex'));
}

/**
 * Checks a webhook's `sign`: take it out, encode the rest PHP's way, md5(base64(that) + key).
 * Cryptomus's documentation verifies with `JSON_UNESCAPED_UNICODE` while PHP's default escapes
 * non-ASCII; the two differ only for a body with non-ASCII text, so both spellings are accepted
 * (either one needs the payment key, so accepting both weakens nothing).
 */
export function isValidCryptomusWebhook(parsedBody: Record<string, unknown>, paymentKey: string): boolean {
  const { sign, ...payload } = parsedBody;
  if (typeof sign !== 'string' || !paymentKey) return false;
  const escaped = sameMd5Hex(cryptomusSign(phpJsonEncode(payload), paymentKey), sign);
  const unescaped = sameMd5Hex(cryptomusSign(phpJsonEncode(payload, { unescapedUnicode: true }), paymentKey), sign);
  return escaped || unescaped;
}
