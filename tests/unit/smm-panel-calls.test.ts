import { describe, expect, it } from 'vitest';
import { createSmmPanelClient } from '../../core/fulfilment/smm-panel-client.ts';

describe('the supplier panel client tells of every call', () => {
  it('once per call: a good reply, an HTTP error and an unreachable panel', async () => {
    const calls: boolean[] = [];
    const replies = [
      () => new Response(JSON.stringify({ balance: '12.5', currency: 'USD' }), { status: 200 }),
      () => new Response(JSON.stringify({ error: 'Incorrect key' }), { status: 500 }),
      () => {
        throw new TypeError('fetch failed');
      },
    ];
    let next = 0;
    const panel = createSmmPanelClient({
      url: 'https://panel.example/api/v2',
      key: 'k',
      fetch: () => Promise.resolve().then(() => replies[next++]()),
      onCall: (failed) => calls.push(failed),
    });
    await panel.balance();
    await expect(panel.balance()).rejects.toThrow(/HTTP 500/);
    await expect(panel.balance()).rejects.toThrow(/unreachable/);
    expect(calls).toEqual([false, true, true]);
  });
});
