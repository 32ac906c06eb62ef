/**
 * Where a panel added on /admin/suppliers may be reached. An owner's token can be stolen, and a
 * panel URL makes the server send requests: without this guard the store would fetch its own
 * loopback, the cloud's metadata address or the operator's private network and describe what
 * answered. So a stored panel is reached only over `https` at a public address, checked on every
 * connection (the name is resolved, the address checked, and the socket opened to that same
 * address, so a name that changes its answer between check and connect gains nothing), and a
 * redirect is never followed. The operator opts a private network in by listing its addresses
 * (SUPPLIER_PANEL_ALLOW_PRIVATE); such a panel may then also speak plain `http`.
 *
 * The environment panel (SMM_PANEL_URL) is the operator's own configuration and does not pass
 * through here.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, type LookupFunction, isIP } from 'node:net';
import { Readable } from 'node:stream';

/** Refused before any byte is sent: the URL is not one a stored panel may use. */
export class PanelAddressError extends Error {
  override name = 'PanelAddressError';
}

/** Addresses no public service has: this host, private networks, link-local, reserved ranges. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:127.0.0.1`). */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match?.[1]) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The operator's private addresses a stored panel may use: "10.0.0.0/8, 192.168.1.5, fd00::/8". */
export function parseAllowedPrivateAddresses(text: string): BlockList | string {
  const list = new BlockList();
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', prefixText] = entry.split('/');
    const family = isIP(address);
    if (family === 0) return `"${entry}" is not an IP address or network`;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128))
      return `"${entry}" has a bad prefix length`;
    list.addSubnet(address, prefix, type);
  }
  return list;
}

export interface PanelAddressPolicy {
  /** The operator's private networks (SUPPLIER_PANEL_ALLOW_PRIVATE); null when none. */
  allowedPrivate: BlockList | null;
  /** Resolves a name to one address (tests pass their own; DNS otherwise). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }>;
}

/** Whether a stored panel may connect to this address under the policy. */
export function isAllowedPanelAddress(address: string, policy: PanelAddressPolicy): boolean {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  const [checked, type] = v4
    ? [v4, 'ipv4' as const]
    : [address, isIP(address) === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (isIP(checked) === 0) return false;
  if (policy.allowedPrivate?.check(checked, type)) return true;
  return !NOT_PUBLIC.check(checked, type);
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

const NOT_ALLOWED =
  'Supplier panels must be reached over https at a public address (an address on your own network can be allowed with SUPPLIER_PANEL_ALLOW_PRIVATE)';

/**
 * What is wrong with a stored panel's URL that can be seen without asking DNS (the scheme, an
 * address written in the URL), or null. The connection checks the rest.
 */
export function panelUrlProblem(text: string, policy: PanelAddressPolicy): string | null {
  if (!URL.canParse(text)) return 'Enter the panel’s API URL, e.g. https://panel.example/api/v2';
  const url = new URL(text);
  if (url.username || url.password) return 'Leave the user name and password out of the panel’s URL';
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  if (literal && !isAllowedPanelAddress(host, policy)) return NOT_ALLOWED;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && literal && policy.allowedPrivate?.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6'))
    return null;
  if (url.protocol === 'http:' && !literal && policy.allowedPrivate) return null;
  return NOT_ALLOWED;
}

type LookupCallback = Parameters<LookupFunction>[2];

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for stored panels: POST/GET with a text body, through the address check on every
 * connection, never following a redirect (a 3xx comes back as it is, which the panel client
 * reports as an HTTP error). The body is a stream, so the caller's size cap applies while reading.
 */
export function createGuardedPanelFetch(policy: PanelAddressPolicy): typeof fetch {
  const resolve = policy.resolve ?? (async (hostname: string) => dnsLookup(hostname, { verbatim: true }));

  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      ({ address, family }) => {
        if (!isAllowedPanelAddress(address, policy)) {
          callback(new PanelAddressError(NOT_ALLOWED), '');
          return;
        }
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };

  const guardedFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const problem = panelUrlProblem(url.href, policy);
    if (problem) return Promise.reject(new PanelAddressError(problem));
    const transport = url.protocol === 'https:' ? https : http;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    // The panel protocol sends form-encoded text; nothing else is ever passed here.
    if (init.body != null && typeof init.body !== 'string')
      return Promise.reject(new TypeError('A supplier panel request body is form-encoded text'));
    const body = init.body ?? undefined;
    return new Promise<Response>((resolveResponse, reject) => {
      const request = transport.request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          // An IP written in the URL was checked above; a name is checked as it is resolved.
          lookup: url.protocol === 'http:' ? plainHttpLookup : lookup,
          ...(init.signal ? { signal: init.signal } : {}),
          agent: false,
        },
        (reply) => {
          const status = reply.statusCode ?? 502;
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(reply.headers)) {
            if (typeof value === 'string') replyHeaders.set(name, value);
            else if (Array.isArray(value)) replyHeaders.set(name, value.join(', '));
          }
          const stream = NULL_BODY_STATUSES.has(status)
            ? null
            : (Readable.toWeb(reply) as unknown as ReadableStream<Uint8Array>);
          if (!stream) reply.resume();
          resolveResponse(new Response(stream, { status, headers: replyHeaders }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };

  /** Plain http resolves only to the operator's listed private addresses, never a public one. */
  function plainHttpLookup(hostname: string, options: Parameters<LookupFunction>[1], callback: LookupCallback) {
    resolve(hostname).then(
      ({ address, family }) => {
        const type = family === 6 ? 'ipv6' : 'ipv4';
        if (!policy.allowedPrivate?.check(address, type)) {
          callback(new PanelAddressError(NOT_ALLOWED), '');
          return;
        }
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  }

  return guardedFetch;
}
