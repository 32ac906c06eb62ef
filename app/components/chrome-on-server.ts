/**
 * The storefront chrome (sale bar, header, footer) for server rendering. The browser loads
 * StorefrontChrome.tsx lazily (decision 037); on the server, entry.server.tsx hands the module over
 * here, and the root's lazy parts then resolve within the same render. Without this the first
 * render after a boot suspended on them and streamed the header in after the page body (a
 * phone painted the page without its header, then moved everything down), and the page cache
 * kept that HTML. entry.server.tsx also keeps React from sending finished boundaries late.
 */
import type * as StorefrontChrome from './StorefrontChrome.tsx';

export type ChromeModule = typeof StorefrontChrome;

let serverChrome: ChromeModule | null = null;

export function provideServerChrome(chrome: ChromeModule): void {
  serverChrome = chrome;
}

/**
 * For `React.lazy`: on the server a thenable that calls back at once (React.lazy then has the
 * component before it would suspend); in the browser the chunk's import.
 */
export function loadChromePart<K extends keyof ChromeModule>(
  part: K,
  load: () => Promise<ChromeModule>,
): Promise<{ default: ChromeModule[K] }> {
  const ready = serverChrome;
  if (ready) {
    const loaded = { default: ready[part] };
    // React.lazy only calls `then`; a real Promise would call back a microtask later, too late.
    return { then: (onFulfilled: (value: typeof loaded) => unknown) => onFulfilled(loaded) } as unknown as Promise<
      typeof loaded
    >;
  }
  return load().then((chrome) => ({ default: chrome[part] }));
}
