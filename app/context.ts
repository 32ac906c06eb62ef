/**
 * What loaders get from the server: the domain services, created once at boot by the Fastify
 * server and handed to React Router per request (see entry.server.tsx, `createLoadContext`).
 */
import { createContext, RouterContextProvider } from 'react-router';
import type { Catalog } from '../core/catalog/catalog.ts';

export interface StoreServices {
  catalog: Catalog;
  /** When the flash sale on the top bar ends (epoch ms); null hides the countdown. */
  flashSaleEndsAt: () => number | null;
}

export interface RequestContext {
  services: StoreServices;
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
}

export const requestContext = createContext<RequestContext>();

export function buildLoadContext(value: RequestContext): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestContext, value);
  return provider;
}
