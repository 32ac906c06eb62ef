import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptomusSign, isValidCryptomusWebhook, phpJsonEncode } from '../../core/payments/cryptomus-signature.ts';

const KEY = 'test-payment-key';
/** The rule written out with node's crypto, independently of the module under test. */
const md5OfBase64 = (text: string, key: string) =>
  createHash('md5')
    .update(Buffer.from(text, 'utf8').toString('base64') + key)
    .digest('hex');

describe('cryptomusSign', () => {
  it('is md5 hex of base64(body) + key', () => {
    expect(Buffer.from('{"amount":"16.00"}').toString('base64')).toBe('eyJhbW91bnQiOiIxNi4wMCJ9');
    expect(cryptomusSign('{"amount":"16.00"}', KEY)).toBe(
      createHash('md5').update(`eyJhbW91bnQiOiIxNi4wMCJ9${KEY}`).digest('hex'),
    );
  });

  it('signs the UTF-8 bytes of a body with non-ASCII text', () => {
    const body = '{"name":"Café 🚀"}';
    expect(cryptomusSign(body, KEY)).toBe(md5OfBase64(body, KEY));
    expect(cryptomusSign(body, KEY)).not.toBe(cryptomusSign(body, `${KEY}x`));
  });
});

describe('phpJsonEncode', () => {
  it('escapes slashes and writes non-ASCII as lowercase \\uXXXX, astral characters as surrogate pairs', () => {
    expect(phpJsonEncode({ url: 'https://x/y', name: 'Café 🚀' })).toBe(
      '{"url":"https:\\/\\/x\\/y","name":"Caf\\u00e9 \\ud83d\\ude80"}',
    );
  });

  it('with JSON_UNESCAPED_UNICODE keeps non-ASCII as is but still escapes slashes and U+2028/U+2029', () => {
    expect(
      phpJsonEncode({ url: 'https://x/y', name: 'Café 🚀', sep: '\u2028\u2029' }, { unescapedUnicode: true }),
    ).toBe('{"url":"https:\\/\\/x\\/y","name":"Café 🚀","sep":"\\u2028\\u2029"}');
  });

  it('writes quotes, backslashes and control characters as PHP does, and leaves DEL alone', () => {
    expect(phpJsonEncode({ q: 'say "hi"\\ \n\t\r\b\f\u0001\u001f\u007f' })).toBe(
      '{"q":"say \\"hi\\"\\\\ \\n\\t\\r\\b\\f\\u0001\\u001f\u007f"}',
    );
  });

  it('keeps key order, escapes keys, has no spaces, and writes numbers, booleans, null and lists as JSON', () => {
    expect(phpJsonEncode({ b: 1.5, 'a/b': -3, t: true, f: false, z: null, list: [1, 'x/y', { k: [] }], o: {} })).toBe(
      '{"b":1.5,"a\\/b":-3,"t":true,"f":false,"z":null,"list":[1,"x\\/y",{"k":[]}],"o":{}}',
    );
  });

  it('escapes a lone surrogate in both modes (it has no UTF-8 form)', () => {
    expect(phpJsonEncode('\ud800x')).toBe('"\\ud800x"');
    expect(phpJsonEncode('x\udc00', { unescapedUnicode: true })).toBe('"x\\udc00"');
  });

  it('property: reads back as the same JSON as JSON.stringify writes, and is pure ASCII by default', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, unescapedUnicode) => {
        const encoded = phpJsonEncode(value, { unescapedUnicode });
        expect(JSON.parse(encoded)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(encoded).not.toMatch(/\n|(?<!\\)\//);
        if (!unescapedUnicode) expect(encoded).toMatch(/^[\x20-\x7f]*$/);
      }),
    );
  });
});

describe('isValidCryptomusWebhook', () => {
  const payload = {
    type: 'payment',
    uuid: 'u-1',
    order_id: 'BST-1',
    amount: '16.00',
    url: 'https://x/y',
    note: 'Café 🚀',
  };

  it('accepts a sign over the JSON_UNESCAPED_UNICODE encoding (Cryptomus documents this check)', () => {
    const sign = md5OfBase64(
      '{"type":"payment","uuid":"u-1","order_id":"BST-1","amount":"16.00","url":"https:\\/\\/x\\/y","note":"Café 🚀"}',
      KEY,
    );
    expect(isValidCryptomusWebhook({ ...payload, sign }, KEY)).toBe(true);
  });

  it("accepts a sign over PHP's default encoding (non-ASCII escaped)", () => {
    const sign = md5OfBase64(
      '{"type":"payment","uuid":"u-1","order_id":"BST-1","amount":"16.00","url":"https:\\/\\/x\\/y","note":"Caf\\u00e9 \\ud83d\\ude80"}',
      KEY,
    );
    expect(isValidCryptomusWebhook({ ...payload, sign }, KEY)).toBe(true);
    expect(isValidCryptomusWebhook({ ...payload, sign: sign.toUpperCase() }, KEY)).toBe(true);
  });

  it('refuses a wrong key, a missing, empty, short or non-hex sign, a sign that is not a string, and no key', () => {
    const sign = cryptomusSign(phpJsonEncode(payload), KEY);
    expect(isValidCryptomusWebhook({ ...payload, sign }, 'another-key')).toBe(false);
    expect(isValidCryptomusWebhook({ ...payload, sign }, '')).toBe(false);
    expect(isValidCryptomusWebhook(payload, KEY)).toBe(false);
    for (const bad of ['', sign.slice(1), `${sign}00`, `${sign.slice(1)}g`, 42, null, [sign]]) {
      expect(isValidCryptomusWebhook({ ...payload, sign: bad }, KEY)).toBe(false);
    }
  });

  it('refuses a sign made with JSON.stringify when the body has a slash (the classic mistake)', () => {
    const sign = md5OfBase64(JSON.stringify(payload), KEY);
    expect(isValidCryptomusWebhook({ ...payload, sign }, KEY)).toBe(false);
  });

  const payloads = fc
    .dictionary(
      fc.string().filter((key) => key !== 'sign'),
      fc.jsonValue(),
      { minKeys: 1 },
    )
    .map((object) => ({ ...object }));
  const signed = (
    object: Record<string, unknown>,
    unescapedUnicode: boolean,
  ): Record<string, unknown> & { sign: string } => ({
    ...object,
    sign: cryptomusSign(phpJsonEncode(object, { unescapedUnicode }), KEY),
  });

  it('property: sign then verify holds, also after the body travels as PHP-encoded JSON', () => {
    fc.assert(
      fc.property(payloads, fc.boolean(), (object, unescapedUnicode) => {
        const body = signed(object, unescapedUnicode);
        expect(isValidCryptomusWebhook(body, KEY)).toBe(true);
        const travelled = JSON.parse(phpJsonEncode(body, { unescapedUnicode })) as Record<string, unknown>;
        expect(isValidCryptomusWebhook(travelled, KEY)).toBe(true);
      }),
    );
  });

  it('property: any single change to a field, a field more or less, or a changed sign is refused', () => {
    fc.assert(
      fc.property(
        payloads,
        fc.boolean(),
        fc.nat(),
        fc.jsonValue(),
        fc.nat({ max: 31 }),
        (object, unescapedUnicode, pick, replacement, signPosition) => {
          const body = signed(object, unescapedUnicode);
          const keys = Object.keys(object);
          const key = keys[pick % keys.length];
          const changed = phpJsonEncode(replacement) === phpJsonEncode(body[key]) ? [replacement] : replacement;
          expect(isValidCryptomusWebhook({ ...body, [key]: changed }, KEY)).toBe(false);
          const { [key]: _removed, ...fewer } = body;
          expect(isValidCryptomusWebhook(fewer, KEY)).toBe(false);
          let extraKey = 'extra';
          while (Object.hasOwn(body, extraKey)) extraKey += '_';
          expect(isValidCryptomusWebhook({ ...body, [extraKey]: null }, KEY)).toBe(false);
          const flipped = body.sign[signPosition] === '0' ? '1' : '0';
          const otherSign = body.sign.slice(0, signPosition) + flipped + body.sign.slice(signPosition + 1);
          expect(isValidCryptomusWebhook({ ...body, sign: otherSign }, KEY)).toBe(false);
        },
      ),
    );
  });
});
