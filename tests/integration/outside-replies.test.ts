/**
 * Replies from outside the store are read with a cap and a deadline, over real sockets: a
 * supplier panel (or a payment provider) that answers without end costs at most the cap, and
 * one that never answers fails in time. The endless server counts what it managed to send
 * before the store closed the connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmmPanelError, createSmmPanelClient } from '../../core/fulfilment/smm-panel-client.ts';
import { createRazorpayProvider } from '../../core/payments/razorpay.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A server that streams 64 KB chunks until the client hangs up (or 400 MB, whichever first). */
async function startEndlessServer() {
  const sent = { bytes: 0, closed: false };
  const chunk = Buffer.alloc(64 * 1024, '{'.charCodeAt(0));
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (sent.bytes < 400 * 1024 * 1024 && !response.destroyed) {
        sent.bytes += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.on('close', () => (sent.closed = true));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent };
}

/** A server that takes the request and never answers. */
async function startSilentServer() {
  const server = http.createServer((request) => request.resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('replies from outside the store', () => {
  it('stops reading a supplier panel reply at the cap and hangs up', async () => {
    const endless = await startEndlessServer();
    const client = createSmmPanelClient({ url: `${endless.url}/api/v2`, key: 'k', maxReplyBytes: 256 * 1024 });
    const failure = await client.services().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SmmPanelError);
    expect((failure as SmmPanelError).message).toMatch(/too large/);
    await until(() => endless.sent.closed);
    expect(endless.sent.closed).toBe(true);
    // What the server got out before the hang-up: the cap plus what socket buffers hold, far
    // from the 400 MB it would have sent.
    expect(endless.sent.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('gives up on a supplier panel that never answers', async () => {
    const url = await startSilentServer();
    const client = createSmmPanelClient({ url: `${url}/api/v2`, key: 'k', timeoutMs: 300 });
    const started = Date.now();
    const failure = await client.balance().catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('caps what a payment provider answers too', async () => {
    const endless = await startEndlessServer();
    const razorpay = createRazorpayProvider({
      keyId: 'rzp_test_cap',
      keySecret: 'cap-secret',
      webhookSecret: 'cap-webhook',
      apiUrl: endless.url,
    });
    await expect(razorpay.lookUp('order_cap')).rejects.toThrow();
    await until(() => endless.sent.closed);
    expect(endless.sent.bytes).toBeLessThan(32 * 1024 * 1024);
  });
});
