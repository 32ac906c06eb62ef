import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTrackingParam, withoutTrackingParams } from '../../server/tracking-params.ts';

describe('withoutTrackingParams', () => {
  it('drops every utm_* and click id, in any letter case, and keeps the rest in order', () => {
    expect(withoutTrackingParams('/?utm_source=ig&utm_medium=story&gclid=abc')).toBe('/');
    expect(withoutTrackingParams('/order/x?type=Standard&fbclid=1&UTM_Campaign=b&ttclid=2&msclkid=3')).toBe(
      '/order/x?type=Standard',
    );
    expect(withoutTrackingParams('/blog?utm_term=a&s=likes&gclid=z&page=2')).toBe('/blog?s=likes&page=2');
    expect(withoutTrackingParams('/blog?%75tm_source=x&s=a')).toBe('/blog?s=a');
  });

  it('answers the same string when there is nothing to drop', () => {
    for (const url of ['/', '/faq', '/blog?s=utm_source', '/?', '/?a=1&&b', '/x?%E0%A4%A=1']) {
      expect(withoutTrackingParams(url)).toBe(url);
    }
  });

  it('never drops a parameter that is not tracking, and is idempotent', () => {
    const name = fc.oneof(
      fc.constantFrom('utm_source', 'utm_x', 'gclid', 'fbclid', 'ttclid', 'msclkid', 'type', 's', 'page', 'order'),
      fc.stringMatching(/^[a-z_]{1,8}$/),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.stringMatching(/^[a-z0-9]{0,5}$/)), { maxLength: 8 }), (pairs) => {
        const url = pairs.length ? `/p?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}` : '/p';
        const trimmed = withoutTrackingParams(url);
        const keptPairs = pairs.filter(([n]) => !isTrackingParam(n)).map(([n, v]) => `${n}=${v}`);
        expect(trimmed).toBe(keptPairs.length ? `/p?${keptPairs.join('&')}` : '/p');
        expect(withoutTrackingParams(trimmed)).toBe(trimmed);
      }),
    );
  });
});
