import { type Page, type Request, type Response, expect } from '@playwright/test';

/**
 * Waits until React has hydrated the server-rendered page: clicks made before that are lost,
 * because the server HTML has no event handlers. React tags every hydrated DOM node with an
 * internal `__reactProps$…` key; the `<main>` element is rendered by the root layout on every page.
 * A page without framework JavaScript (app/page-handle.ts: no module script at all) is never
 * hydrated: it is ready once loaded, which `page.goto` has waited for.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if (!document.querySelector('script[type="module"]')) return document.readyState === 'complete';
    const main = document.querySelector('main');
    return !!main && Object.keys(main).some((key) => key.startsWith('__reactProps$'));
  });
  // Let the commit's passive effects (useEffect) run before the test interacts.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** Navigates, checks the response arrived, and waits for hydration. */
export async function gotoHydrated(page: Page, url: string): Promise<Response> {
  const response = await page.goto(url);
  expect(response, `no response for ${url}`).not.toBeNull();
  await waitForHydration(page);
  return response!;
}

/**
 * What the accessibility tree says about an element's expanded state (what a screen reader hears),
 * from Chromium itself: a native disclosure such as a popover's button has no `aria-expanded`
 * attribute to read.
 */
export async function expandedState(page: Page, selector: string): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return nodes[0]?.properties?.find((property) => property.name === 'expanded')?.value.value;
  } finally {
    await cdp.detach();
  }
}

interface RequestLog {
  pending: Set<Request>;
  /** When a request last started or ended (Date.now()). */
  lastChange: number;
}

const requestLogs = new WeakMap<Page, RequestLog>();

/** Starts following the page's requests for `dataSettled`: call it before the page navigates. */
export function followRequests(page: Page): void {
  if (requestLogs.has(page)) return;
  const log: RequestLog = { pending: new Set(), lastChange: Date.now() };
  requestLogs.set(page, log);
  const started = (request: Request) => {
    log.pending.add(request);
    log.lastChange = Date.now();
  };
  const ended = (request: Request) => {
    log.pending.delete(request);
    log.lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/**
 * Waits until the page's data has arrived: React Router has run every loader (the clientLoaders
 * of a hydrating page included) and has no navigation or fetcher going, and no request of the
 * page has been in flight for `quietMs`. Playwright's `networkidle` asks for 500 ms without
 * requests, which a suite of many page loads pays on every one; a request a page sends after
 * another one's answer follows it within a render, so a shorter quiet time finds the same end.
 * Gives up quietly after `timeoutMs` (a page that keeps a request open never goes quiet).
 */
export async function dataSettled(page: Page, { quietMs = 200, timeoutMs = 5_000 } = {}): Promise<void> {
  const log = requestLogs.get(page);
  if (!log) throw new Error('dataSettled needs followRequests(page) before the page navigates');
  const deadline = Date.now() + timeoutMs;
  await page
    .waitForFunction(
      () => {
        type RouterState = {
          initialized: boolean;
          navigation: { state: string };
          fetchers: Map<string, { state: string }>;
        };
        const router = (window as unknown as { __reactRouterDataRouter?: { state: RouterState } })
          .__reactRouterDataRouter;
        if (!router) return true; // a page without React Router in the browser loads nothing after itself
        const { state } = router;
        return (
          state.initialized &&
          state.navigation.state === 'idle' &&
          [...state.fetchers.values()].every((fetcher) => fetcher.state === 'idle')
        );
      },
      undefined,
      { timeout: timeoutMs },
    )
    .catch(() => undefined);
  while (Date.now() < deadline) {
    if (log.pending.size === 0 && Date.now() - log.lastChange >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
