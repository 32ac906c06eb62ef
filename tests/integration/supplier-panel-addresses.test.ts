/**
 * Where a panel added on /admin/suppliers may be reached, through the real app and real sockets:
 * a stolen owner token must not turn the store into a way to reach its own host, the cloud's
 * metadata address or a private network. Every address form of this host is refused before a
 * byte is sent (a local listener counts what reaches it), a name that resolves to this host is
 * refused when connecting, a redirect is not followed, and what answered is never echoed. The
 * operator's allow-list (SUPPLIER_PANEL_ALLOW_PRIVATE) opens a private address on purpose.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmmPanel, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const SUPPLIER_KEY = 'c3VwcGxpZXIga2V5czogdGVzdCBvbmx5LCBuZXZlciA=';
const PANEL_KEY = 'address-test-panel-key';
const SECRET_PAGE = 'internal admin page: db password is hunter2';

/** A listener that answers like an internal service and counts every request that reaches it. */
async function startCanary(answer: (response: http.ServerResponse) => void) {
  let hits = 0;
  const server = http.createServer((request, response) => {
    hits += 1;
    request.resume();
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Canary = Awaited<ReturnType<typeof startCanary>>;

describe.each(dialects)('supplier panel addresses on %s', (dialect) => {
  let guarded: TestApp;
  let allowing: TestApp;
  let internal: Canary;
  let redirecting: Canary;
  let panel: FakeSmmPanel;
  const tokens = new Map<TestApp, string>();

  async function owner(t: TestApp): Promise<string> {
    const credentials = { email: 'address.owner@example.com', password: 'a long enough owner password' };
    await seedAdmin(t.database.db, credentials.email, credentials.password, { verified: true });
    return adminToken(t, credentials, '10.63.0.1');
  }

  beforeAll(async () => {
    internal = await startCanary((response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(SECRET_PAGE),
    );
    redirecting = await startCanary((response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${internal.port}/api/v2` }).end(),
    );
    panel = await startFakeSmmPanel({ key: PANEL_KEY });
    guarded = await startTestApp(dialect, { env: { SUPPLIER_KEY_ENCRYPTION_KEY: SUPPLIER_KEY } });
    allowing = await startTestApp(dialect, {
      env: { SUPPLIER_KEY_ENCRYPTION_KEY: SUPPLIER_KEY, SUPPLIER_PANEL_ALLOW_PRIVATE: '127.0.0.1, 10.0.0.0/8' },
    });
    for (const t of [guarded, allowing]) tokens.set(t, await owner(t));
  });
  afterAll(async () => {
    await Promise.all([guarded?.close(), allowing?.close()]);
    await Promise.all([internal?.close(), redirecting?.close(), panel?.close()]);
  });

  const addPanel = (t: TestApp, url: string, name = 'Probe') =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/suppliers',
      headers: { authorization: `Bearer ${tokens.get(t)}` },
      payload: { name, url, apiKey: PANEL_KEY },
    });

  it('refuses every way of writing this host, a private network or the metadata address, before sending a byte', async () => {
    const port = internal.port;
    const urls = [
      `http://127.0.0.1:${port}/api/v2`,
      `https://127.0.0.1:${port}/api/v2`,
      `https://[::1]:${port}/api/v2`,
      `https://0x7f000001:${port}/api/v2`,
      `https://2130706433:${port}/api/v2`,
      `https://127.1:${port}/api/v2`,
      `https://[::ffff:127.0.0.1]:${port}/api/v2`,
      `https://[::ffff:7f00:1]:${port}/api/v2`,
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/api/v2',
      'https://192.168.0.10/api/v2',
      'https://[fd00::1]/api/v2',
      'http://panel.example/api/v2',
    ];
    for (const url of urls) {
      const reply = await addPanel(guarded, url);
      expect(reply.statusCode, url).toBe(400);
      expect(reply.json<{ message: string }>().message, url).toMatch(/https at a public address/);
    }
    expect(internal.hits()).toBe(0);
  });

  it('refuses a name that resolves to this host when connecting, with the same words as a closed port', async () => {
    const toThisHost = await addPanel(guarded, `https://localhost:${internal.port}/api/v2`);
    expect(toThisHost.statusCode).toBe(400);
    const message = toThisHost.json<{ message: string }>().message;
    expect(message).toBe('The panel did not accept the URL and key: it could not be reached (check the URL)');
    expect(internal.hits()).toBe(0);
    // The same sentence as a public name that does not exist: nothing tells one failure from the other.
    const nowhere = await addPanel(guarded, 'https://no-such-panel.invalid/api/v2');
    expect(nowhere.json<{ message: string }>().message).toBe(message);
  });

  it('lets the operator allow a private address, and then still never follows a redirect or echoes a reply', async () => {
    const allowed = await addPanel(allowing, panel.url, 'Own network');
    expect(allowed.statusCode, allowed.body).toBe(200);

    const before = internal.hits();
    const redirect = await addPanel(allowing, `http://127.0.0.1:${redirecting.port}/api/v2`, 'Redirect');
    expect(redirect.statusCode).toBe(400);
    expect(redirect.json<{ message: string }>().message).toMatch(/HTTP 302/);
    expect(redirecting.hits()).toBe(1);
    expect(internal.hits()).toBe(before);

    const page = await addPanel(allowing, `http://127.0.0.1:${internal.port}/api/v2`, 'Internal');
    expect(page.statusCode).toBe(400);
    expect(page.body).not.toContain('hunter2');
    expect(page.body).not.toContain('internal admin page');
    // A private address the operator did not list stays closed.
    const unlisted = await addPanel(allowing, 'https://192.168.0.10/api/v2', 'Unlisted');
    expect(unlisted.json<{ message: string }>().message).toMatch(/https at a public address/);
  });
});
