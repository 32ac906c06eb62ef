/**
 * A proxy in front of a supplier panel (the fake SMM v2 panel), for the suites that kill a store
 * at the worst moment: it can keep a call from the panel altogether (the store waits for an
 * answer until it dies) or forward it and keep only the panel's reply from the store (the
 * supplier has the order, the store never hears so).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One API v2 call as the store sent it. */
interface ProxiedCall {
  action: string;
  form: URLSearchParams;
}

/** forward: as usual; withhold: never sent on, never answered; withhold-reply: sent on, never answered. */
type ProxyRoute = 'forward' | 'withhold' | 'withhold-reply';

interface PanelProxyHooks {
  /** Decides each call's fate; every call is forwarded when absent. */
  route?: (call: ProxiedCall) => ProxyRoute;
  /** Every call that is sent on to the panel, just before it is. */
  onForward?: (call: ProxiedCall) => void;
  /** The panel's reply to every call sent on, with how the call was routed. */
  onReply?: (call: ProxiedCall, text: string, route: ProxyRoute) => void;
}

export interface PanelProxy {
  /** The API v2 URL to give the store. */
  url: string;
  /** Drops the withheld connections and stops. */
  close(): Promise<void>;
}

export async function startPanelProxy(upstream: string, hooks: PanelProxyHooks = {}): Promise<PanelProxy> {
  const held: ServerResponse[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const form = new URLSearchParams(body.toString('utf8'));
    const call = { action: form.get('action') ?? '', form };
    const route = hooks.route?.(call) ?? 'forward';
    if (route === 'withhold') {
      held.push(res);
      return;
    }
    hooks.onForward?.(call);
    const reply = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
      body,
    });
    const text = await reply.text();
    hooks.onReply?.(call, text, route);
    if (route === 'withhold-reply') {
      held.push(res);
      return;
    }
    res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.statusCode = 502;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
