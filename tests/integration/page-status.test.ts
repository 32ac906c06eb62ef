/**
 * Pages that cannot show what their address names answer with the real HTTP status and a real
 * title (never a 200 with the message alone, never an empty <title>), on both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

describe.each(dialects)('status codes and titles of pages that find nothing on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['/order-confirm/NoSuchOrder123', 404, 'Order not found | Boostly', 'Order not found'],
    ['/order/no-such-serviceGOI100?type=likes', 404, 'Package not found | Boostly', 'Package details not available'],
    ['/order/not-an-order-address', 400, 'Package not found | Boostly', 'Invalid URL parameters!'],
    ['/course/no-such-course', 404, 'Page not found | Boostly', 'could not be found'],
  ])('%s answers %i titled "%s"', async (url, status, title, text) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(status);
    expect(titleOf(response.body)).toBe(title);
    expect(response.body).toContain(text);
  });
});
