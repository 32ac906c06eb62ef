import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SmmPanelError,
  createSmmPanelClient,
  isAmbiguousAddError,
  isRetryableSupplierError,
} from '../../core/fulfilment/smm-panel-client.ts';
import type { SupplierPanel } from '../../core/fulfilment/supplier.ts';
import { type FakeSmmPanel, startFakeSmmPanel } from '../fakes/smm-panel.ts';

const KEY = 'test-panel-key';

async function failure(promise: Promise<unknown>): Promise<SmmPanelError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmmPanelError);
  return error as SmmPanelError;
}

describe('SMM panel API v2 client', () => {
  let panel: FakeSmmPanel;
  let client: SupplierPanel;

  beforeEach(async () => {
    panel = await startFakeSmmPanel({ key: KEY });
    client = createSmmPanelClient({ url: panel.url, key: KEY, timeoutMs: 2000 });
  });
  afterEach(async () => {
    await panel.close();
  });

  it('posts form-encoded bodies with key and action to the one endpoint', async () => {
    await client.balance();
    expect(panel.requests).toHaveLength(1);
    const [request] = panel.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/v2');
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(request.form).toEqual({ key: KEY, action: 'balance' });
  });

  it('services: normalises ids, numbers and flags; rates exact in e4', async () => {
    const services = await client.services();
    expect(services).toEqual([
      {
        service: '1',
        name: 'Instagram Followers',
        type: 'Default',
        category: 'Instagram',
        rate: 0.9,
        rateE4: 9000,
        min: 50,
        max: 10000,
        refill: true,
        cancel: true,
      },
      {
        service: '2',
        name: 'YouTube Views',
        type: 'Default',
        category: 'YouTube',
        rate: 1.5,
        rateE4: 15000,
        min: 100,
        max: 1000000,
        refill: false,
        cancel: true,
      },
      {
        service: '3',
        name: 'Instagram Custom Comments',
        type: 'Custom Comments',
        category: 'Instagram',
        rate: 12.34567,
        rateE4: 123457, // five decimals: rounded
        min: 10,
        max: 500,
        refill: false,
        cancel: false,
      },
      {
        service: '4',
        name: 'Instagram Auto Likes',
        type: 'Subscriptions',
        category: 'Instagram',
        rate: 0.45,
        rateE4: 4500,
        min: 50,
        max: 5000,
        refill: false,
        cancel: true,
      },
      {
        service: '5',
        name: 'Instagram Followers (drip-feed)',
        type: 'Default',
        category: 'Instagram',
        rate: 1.1,
        rateE4: 11000,
        min: 10,
        max: 5000,
        refill: true,
        cancel: true,
      },
    ]);
  });

  it('services: a malformed entry is a bad response', async () => {
    panel.services.push({
      service: 9,
      name: 'Broken',
      type: 'Default',
      category: 'x',
      rate: 'free',
      min: 1,
      max: 2,
      refill: 0,
      cancel: 0,
    });
    const error = await failure(client.services());
    expect(error.kind).toBe('bad-response');
  });

  it('add: sends the fields, joins comments by newline, returns the order id as a string', async () => {
    expect(await client.add({ service: '1', link: 'https://instagram.com/someone', quantity: 100 })).toEqual({
      order: '23501',
    });
    const second = await client.add({
      service: '3',
      link: 'https://instagram.com/p/abc',
      quantity: 10,
      comments: ['Nice!', 'Great & good'],
    });
    expect(second).toEqual({ order: '23502' });
    expect(panel.requests[0].form).toEqual({
      key: KEY,
      action: 'add',
      service: '1',
      link: 'https://instagram.com/someone',
      quantity: '100',
    });
    expect(panel.requests[1].form.comments).toBe('Nice!\nGreat & good');
    expect(panel.orders.get('23502')?.comments).toBe('Nice!\nGreat & good');
  });

  it('add: { error } with HTTP 200 is an api error, not retryable, not ambiguous', async () => {
    panel.failNextAdd('Not enough funds on balance');
    const error = await failure(client.add({ service: '1', link: 'https://x', quantity: 100 }));
    expect(error.kind).toBe('api');
    expect(error.message).toBe('Not enough funds on balance');
    expect(error.action).toBe('add');
    expect(isRetryableSupplierError(error)).toBe(false);
    expect(isAmbiguousAddError(error)).toBe(false);
    expect(panel.orders.size).toBe(0);
    // Only the next add fails.
    expect(await client.add({ service: '1', link: 'https://x', quantity: 100 })).toEqual({ order: '23501' });
  });

  it('api errors that say to try again are retryable', async () => {
    panel.failNextAdd('Server is busy, please try again later');
    const error = await failure(client.add({ service: '1', link: 'https://x', quantity: 100 }));
    expect(error.kind).toBe('api');
    expect(isRetryableSupplierError(error)).toBe(true);
  });

  it('status: normalises the status and numbers sent as strings', async () => {
    panel.setOrder(7, { status: 'Partial', charge: '0.27819', start_count: '3572', remains: '157', currency: 'USD' });
    expect(await client.status('7')).toEqual({
      status: 'Partial',
      rawStatus: 'Partial',
      charge: '0.27819',
      startCount: 3572,
      remains: 157,
      currency: 'USD',
      posts: null,
      runs: null,
    });
    panel.setOrder(8, { status: 'In Progress', charge: 1.2, start_count: 10, remains: 40 });
    expect(await client.status('8')).toMatchObject({
      status: 'In Progress',
      rawStatus: 'In Progress',
      charge: '1.2',
      startCount: 10,
      remains: 40,
    });
    panel.setOrder(9, { status: 'Refunded', start_count: '', remains: '' });
    expect(await client.status('9')).toMatchObject({
      status: null,
      rawStatus: 'Refunded',
      startCount: null,
      remains: null,
    });
    expect(panel.requests[0].form).toEqual({ key: KEY, action: 'status', order: '7' });
  });

  it('status: an unknown order is an api error', async () => {
    const error = await failure(client.status('404'));
    expect(error).toMatchObject({ kind: 'api', message: 'Incorrect order ID', action: 'status' });
  });

  it('statuses: mixes good entries and errors, one request', async () => {
    panel.setOrder(1, { status: 'Completed', remains: '0' });
    panel.setOrder(10, { status: 'Cancelled', remains: '1000' });
    const result = await client.statuses(['1', '10', '100']);
    expect(panel.requests).toHaveLength(1);
    expect(panel.requests[0].form).toEqual({ key: KEY, action: 'status', orders: '1,10,100' });
    expect([...result.keys()]).toEqual(['1', '10', '100']);
    expect(result.get('1')).toMatchObject({ status: 'Completed', remains: 0 });
    expect(result.get('10')).toMatchObject({ status: 'Canceled', rawStatus: 'Cancelled', remains: 1000 });
    expect(result.get('100')).toEqual({ error: 'Incorrect order ID' });
  });

  it('statuses: 1 to 100 ids', async () => {
    await expect(client.statuses([])).rejects.toBeInstanceOf(RangeError);
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    await expect(client.statuses(ids)).rejects.toBeInstanceOf(RangeError);
    expect(panel.requests).toHaveLength(0);
    const result = await client.statuses(ids.slice(0, 100));
    expect(result.size).toBe(100);
  });

  it("refill: a refill id as a string; refusals are api errors in the panel's words", async () => {
    panel.setOrder(5, { status: 'Completed' });
    expect(await client.refill('5')).toEqual({ refill: '24501' });
    expect(panel.requests.at(-1)?.form).toEqual({ key: KEY, action: 'refill', order: '5' });
    panel.setOrder(6, { status: 'In progress' });
    expect(await failure(client.refill('6'))).toMatchObject({
      kind: 'api',
      action: 'refill',
      message: 'Refill is not available for this order',
    });
    panel.setOrder(7, { status: 'Completed', service: '2' }); // YouTube Views: refill false
    expect(await failure(client.refill('7'))).toMatchObject({
      kind: 'api',
      message: 'Refill is disabled for this service',
    });
    expect(await failure(client.refill('404'))).toMatchObject({ kind: 'api', message: 'Incorrect order ID' });
  });

  it('refill_status: one refill, or up to 100 in one call with per-id errors', async () => {
    panel.setOrder(8, { status: 'Completed' });
    panel.setOrder(9, { status: 'Completed' });
    const { refill: first } = await client.refill('8');
    const { refill: second } = await client.refill('9');
    expect(await client.refillStatus(first)).toEqual({ status: 'Pending', rawStatus: 'Pending' });
    expect(panel.requests.at(-1)?.form).toEqual({ key: KEY, action: 'refill_status', refill: first });
    panel.setRefillStatus(first, 'In Progress');
    panel.setRefillStatus(second, 'Rejected');
    const many = await client.refillStatuses([first, second, '999']);
    expect(panel.requests.at(-1)?.form).toEqual({
      key: KEY,
      action: 'refill_status',
      refills: `${first},${second},999`,
    });
    expect(many).toEqual(
      new Map([
        [first, { status: 'In progress', rawStatus: 'In Progress' }],
        [second, { status: 'Rejected', rawStatus: 'Rejected' }],
        ['999', { error: 'Refill not found' }],
      ]),
    );
    panel.setRefillStatus(first, 'Completed');
    expect(await client.refillStatus(first)).toEqual({ status: 'Completed', rawStatus: 'Completed' });
    panel.setRefillStatus(second, 'Awaiting moderation');
    expect(await client.refillStatus(second)).toEqual({ status: null, rawStatus: 'Awaiting moderation' });
    expect(await failure(client.refillStatus('31337'))).toMatchObject({ kind: 'api', message: 'Refill not found' });
    await expect(client.refillStatuses([])).rejects.toBeInstanceOf(RangeError);
  });

  it('cancel: per order, cancelled or the reason why not', async () => {
    panel.setOrder(1, { status: 'Pending' });
    panel.setOrder(2, { status: 'Completed' });
    expect(await client.cancel(['1', '2', '3'])).toEqual([
      { order: '1', cancelled: true },
      { order: '2', cancelled: false, error: 'Order cannot be canceled' },
      { order: '3', cancelled: false, error: 'Incorrect order ID' },
    ]);
    expect(panel.requests[0].form).toEqual({ key: KEY, action: 'cancel', orders: '1,2,3' });
    expect(panel.orders.get('1')?.status).toBe('Canceled');
  });

  it('balance', async () => {
    expect(await client.balance()).toEqual({ balance: '100.84', currency: 'USD' });
  });

  it('a wrong key is an api error', async () => {
    const wrong = createSmmPanelClient({ url: panel.url, key: 'nope' });
    const error = await failure(wrong.balance());
    expect(error).toMatchObject({ kind: 'api', message: 'Invalid API key' });
    expect(isRetryableSupplierError(error)).toBe(false);
  });

  it('503 is an http error, retryable, and ambiguous for add', async () => {
    panel.setMode('down');
    const error = await failure(client.status('1'));
    expect(error).toMatchObject({ kind: 'http', status: 503 });
    expect(isRetryableSupplierError(error)).toBe(true);
    const addError = await failure(client.add({ service: '1', link: 'https://x', quantity: 100 }));
    expect(isAmbiguousAddError(addError)).toBe(true);
  });

  it('a panel that does not answer in time is a timeout, retryable, and ambiguous for add', async () => {
    panel.setMode('slow');
    const quick = createSmmPanelClient({ url: panel.url, key: KEY, timeoutMs: 300 });
    const started = Date.now();
    const error = await failure(quick.add({ service: '1', link: 'https://x', quantity: 100 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({ kind: 'timeout', action: 'add' });
    expect(isRetryableSupplierError(error)).toBe(true);
    expect(isAmbiguousAddError(error)).toBe(true);
  });

  it('a 200 that is not JSON is a bad response, not retryable', async () => {
    panel.setMode('garbage');
    const error = await failure(client.balance());
    expect(error.kind).toBe('bad-response');
    expect(isRetryableSupplierError(error)).toBe(false);
  });

  it('JSON of the wrong shape is a bad response', async () => {
    const odd = createSmmPanelClient({
      url: panel.url,
      key: KEY,
      fetch: () => Promise.resolve(new Response(JSON.stringify({ services: [] }), { status: 200 })),
    });
    expect((await failure(odd.services())).kind).toBe('bad-response');
    expect((await failure(odd.add({ service: '1', link: 'https://x', quantity: 1 }))).kind).toBe('bad-response');
    expect((await failure(odd.status('1'))).kind).toBe('bad-response');
  });

  it('a refused connection is a network error, retryable', async () => {
    await panel.close();
    const error = await failure(client.balance());
    expect(error.kind).toBe('network');
    expect(isRetryableSupplierError(error)).toBe(true);
    panel = await startFakeSmmPanel({ key: KEY }); // for afterEach
  });

  it('429 is retryable, 4xx otherwise not', () => {
    expect(isRetryableSupplierError(new SmmPanelError('http', 'x', 429))).toBe(true);
    expect(isRetryableSupplierError(new SmmPanelError('http', 'x', 404))).toBe(false);
    expect(isRetryableSupplierError(new Error('x'))).toBe(false);
  });
});
