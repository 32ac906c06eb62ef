import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, metricsAccess } from '../../server/metrics-access.ts';
import { PageCache, type RenderedPage } from '../../server/page-cache.ts';

describe('metrics access', () => {
  it('knows loopback addresses, IPv4-mapped included', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '1270.0.0.1', '', undefined])
      expect(isLoopbackAddress(address)).toBe(false);
  });

  it('with a token, wants exactly it, from anywhere', () => {
    const token = 'a-long-enough-token';
    expect(metricsAccess({ token, authorization: `Bearer ${token}`, socketAddress: '10.0.0.1' })).toBe('allowed');
    expect(metricsAccess({ token, authorization: `Bearer ${token}x`, socketAddress: '127.0.0.1' })).toBe(
      'unauthorized',
    );
    expect(metricsAccess({ token, authorization: undefined, socketAddress: '127.0.0.1' })).toBe('unauthorized');
  });

  it('without a token, lets only loopback in', () => {
    expect(metricsAccess({ token: undefined, authorization: undefined, socketAddress: '::1' })).toBe('allowed');
    expect(metricsAccess({ token: undefined, authorization: 'Bearer x', socketAddress: '192.0.2.1' })).toBe(
      'forbidden',
    );
  });
});

describe('page cache look-ups', () => {
  it('reports a miss, then hits, then a stale serve', async () => {
    let now = 0;
    const seen: string[] = [];
    const cache = new PageCache({ maxSeconds: 60, now: () => now, onLookup: (result) => seen.push(result) });
    const render = (): Promise<RenderedPage> =>
      Promise.resolve({
        status: 200,
        headers: [],
        body: Buffer.from('page'),
        nonce: 'n',
        cacheControl: 'public, max-age=10, stale-while-revalidate=30',
      });
    await cache.get('k', render);
    await cache.get('k', render);
    expect(cache.peekFresh('k')).toBeDefined();
    now = 15_000;
    await cache.get('k', render);
    expect(seen).toEqual(['miss', 'hit', 'hit', 'stale']);
  });
});
