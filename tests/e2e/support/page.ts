import { type Page, type Response, expect } from '@playwright/test';

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
