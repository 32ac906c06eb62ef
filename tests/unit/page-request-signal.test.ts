/**
 * The Fetch request a page is rendered from (server/pages.ts): its signal tells a loader that the
 * visitor went away, and only then. A real Fastify server on a real socket: a complete answer
 * leaves the signal alone; a client that hangs up before the answer aborts it.
 */
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { toFetchRequest } from '../../server/pages.ts';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server whose one route hands its Fetch request out, then answers after `answerAfter`. */
async function serverKeepingRequests(answerAfter: Promise<void>) {
  const seen: Request[] = [];
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
  let closed!: () => void;
  const replyClosed = new Promise<void>((resolve) => (closed = resolve));
  app = Fastify();
  app.get('/*', async (request, reply) => {
    seen.push(toFetchRequest(request, reply, request.url));
    reply.raw.once('close', () => setImmediate(closed));
    arrived();
    await answerAfter;
    return 'the page';
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { seen, port: address.port, requestArrived, replyClosed };
}

describe('the request a page is rendered from', () => {
  it('keeps its signal after a complete answer', async () => {
    const { seen, port, replyClosed } = await serverKeepingRequests(Promise.resolve());
    const response = await fetch(`http://127.0.0.1:${port}/blog?s=word`);
    expect(await response.text()).toBe('the page');
    await replyClosed;
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0]?.url).pathname).toBe('/blog');
    expect(seen[0]?.signal.aborted).toBe(false);
  });

  it('aborts its signal when the client hangs up before the answer', async () => {
    let answer!: () => void;
    const { seen, port, requestArrived, replyClosed } = await serverKeepingRequests(
      new Promise<void>((resolve) => (answer = resolve)),
    );
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /blog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await requestArrived;
    socket.destroy();
    await replyClosed;
    expect(seen[0]?.signal.aborted).toBe(true);
    answer();
  });
});
