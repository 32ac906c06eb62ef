import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, clientAddress, storeToken } from './support/admin.ts';
import { plan, service } from './support/catalogue.ts';
import { codeFor } from './support/mail.ts';
import { orderUrl, paidFollowersOrder, uniqueSuffix } from './support/order.ts';
import { reviewPathFromMail } from './support/reviews.ts';
import { dataSettled, followRequests, gotoHydrated } from './support/page.ts';

/**
 * Every page fits every screen: each page, public and admin, is opened once and then
 * resized through five widths; at each width the page fails on
 *
 * (a) horizontal overflow of the document (its scroll width past its client width), and
 * (b) any visible element or text clipped by its container: a box that sticks out of an ancestor
 *     that clips it (overflow hidden/clip), past the left or right edge of the viewport, or a
 *     box that scrolls sideways without being a labelled, focusable scroll region.
 *
 * Allowed by design: screen-reader-only content (the clip/1 px pattern), decorative art hidden
 * from assistive technology (aria-hidden), labelled focusable scroll regions (wide tables on a
 * phone, the reviews track) and text truncated on purpose with text-overflow: ellipsis or a
 * line clamp. A box entirely outside its clipping container is hidden, not clipped (collapsed
 * panels), so only boxes that are partly cut off count.
 *
 * One load per page, then five resizes: about 35 loads for the whole store. The control test at
 * the end proves the checker fails on a deliberately wide or clipped element.
 */

const WIDTHS = [
  { width: 360, height: 780 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
type Size = (typeof WIDTHS)[number];

/**
 * Runs in the page: the overflow problems of the current layout, one line each (a CSS path and
 * the sizes). Self-contained because Playwright sends its source to the browser.
 */
function findLayoutProblems(): string[] {
  const TOLERANCE = 1;
  const problems: string[] = [];
  const root = document.documentElement;
  const styleCache = new Map<Element, CSSStyleDeclaration>();
  const styleOf = (el: Element): CSSStyleDeclaration => {
    let style = styleCache.get(el);
    if (!style) {
      style = getComputedStyle(el);
      styleCache.set(el, style);
    }
    return style;
  };
  const px = (n: number) => `${Math.round(n)}`;
  const box = (r: { left: number; right: number; top: number; bottom: number }) =>
    `x ${px(r.left)}..${px(r.right)}, y ${px(r.top)}..${px(r.bottom)} (${px(r.right - r.left)}×${px(r.bottom - r.top)})`;

  const cssPath = (el: Element): string => {
    const parts: string[] = [];
    for (let node: Element | null = el; node && node !== root; node = node.parentElement) {
      const tag = node.localName;
      if (node.id) {
        parts.unshift(`${tag}#${CSS.escape(node.id)}`);
        break;
      }
      const testId = node.getAttribute('data-testid');
      let part = testId ? `${tag}[data-testid="${testId}"]` : tag;
      const parent: Element | null = node.parentElement;
      if (!testId && parent) {
        const same = [...parent.children].filter((child) => child.localName === tag);
        if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
      }
      const classes = [...node.classList].slice(0, 3).map((name) => `.${CSS.escape(name)}`);
      parts.unshift(part + classes.join(''));
      if (parts.length >= 7) {
        parts.unshift('…');
        break;
      }
    }
    return parts.join(' > ');
  };

  const SKIPPED = new Set([
    'script',
    'style',
    'template',
    'noscript',
    'head',
    'meta',
    'link',
    'title',
    'br',
    'wbr',
    'option',
    'optgroup',
    'datalist',
  ]);
  // Replaced elements and form controls: their insides are not ours to measure.
  const LEAVES = new Set(['svg', 'img', 'video', 'canvas', 'iframe', 'input', 'textarea', 'select', 'object', 'embed']);

  const visuallyHidden = (el: Element, style: CSSStyleDeclaration): boolean => {
    if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') return true;
    const rect = el.getBoundingClientRect();
    return style.position === 'absolute' && rect.width <= 1 && rect.height <= 1 && style.overflow !== 'visible';
  };
  const scrolls = (value: string) => value === 'auto' || value === 'scroll';
  const clips = (value: string) => value === 'hidden' || value === 'clip';
  /** A scroll box a keyboard user can reach and a screen reader can name: wide tables, the reviews track. */
  const labelledScrollRegion = (el: Element, style: CSSStyleDeclaration): boolean =>
    (scrolls(style.overflowX) || scrolls(style.overflowY)) &&
    (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) &&
    (el.getAttribute('tabindex') === '0' || el.getAttribute('role') === 'region');
  const truncatesByDesign = (style: CSSStyleDeclaration): boolean =>
    style.textOverflow === 'ellipsis' || (style.webkitLineClamp !== '' && style.webkitLineClamp !== 'none');
  const visible = (el: Element): boolean =>
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });

  // Everything a reader can see: elements and non-blank text, minus hidden subtrees.
  const elements: Element[] = [];
  const texts: Array<{ text: Text; parent: Element }> = [];
  const walk = (el: Element) => {
    if (SKIPPED.has(el.localName) || el.getAttribute('aria-hidden') === 'true') return;
    const style = styleOf(el);
    if (style.display === 'none' || visuallyHidden(el, style)) return;
    elements.push(el);
    if (LEAVES.has(el.localName)) return;
    for (const child of el.childNodes) {
      if (child instanceof Element) walk(child);
      else if (child instanceof Text && child.data.trim() !== '') texts.push({ text: child, parent: el });
    }
  };
  walk(document.body);

  const viewportWidth = root.clientWidth;

  // (a) The document scrolls sideways: name the outermost boxes and the texts that reach past the
  // viewport (not those inside a box that scrolls or clips sideways: that box is the one to name).
  if (root.scrollWidth > viewportWidth + TOLERANCE) {
    const contained = (el: Element | null): boolean => {
      for (let up = el; up && up !== document.body; up = up.parentElement) {
        if (styleOf(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = [...document.body.querySelectorAll('*')].filter(
      (el) =>
        el.getBoundingClientRect().right > viewportWidth + TOLERANCE &&
        styleOf(el).display !== 'none' &&
        !contained(el.parentElement),
    );
    const outermost = wide.filter((el) => !wide.some((other) => other !== el && other.contains(el)));
    const wideTexts: string[] = [];
    const textWalker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const textRange = document.createRange();
    for (let node = textWalker.nextNode(); node && wideTexts.length < 3; node = textWalker.nextNode()) {
      const text = node as Text;
      if (text.data.trim() === '' || !text.parentElement || contained(text.parentElement)) continue;
      textRange.selectNodeContents(text);
      const rect = textRange.getBoundingClientRect();
      if (rect.right > viewportWidth + TOLERANCE) {
        wideTexts.push(`${cssPath(text.parentElement)} › text "${text.data.trim().slice(0, 40)}" [${box(rect)}]`);
      }
    }
    const culprits = [
      ...outermost.slice(0, 3).map((el) => `${cssPath(el)} [${box(el.getBoundingClientRect())}]`),
      ...wideTexts,
    ];
    problems.push(
      `document is ${root.scrollWidth}px wide in a ${viewportWidth}px viewport; past its right edge: ${culprits.join('; ') || 'nothing measurable'}`,
    );
  }

  const transformsContainingBlock = (style: CSSStyleDeclaration): boolean =>
    style.transform !== 'none' ||
    style.filter !== 'none' ||
    style.perspective !== 'none' ||
    /paint|layout|strict|content/.test(style.contain) ||
    /transform|filter|perspective/.test(style.willChange) ||
    style.containerType !== 'normal';

  interface Clipping {
    clipper: Element | null;
    amount: number;
    edge: string;
    clipBox: { left: number; right: number; top: number; bottom: number };
  }

  /**
   * The first container that cuts `rect` off, walking the containing-block chain from `start`
   * (an absolutely positioned box escapes overflow of static ancestors, a fixed one of all but
   * transformed ones). Null when nothing clips it, when it is inside an intentional scroll
   * region or ellipsis, or when it is hidden whole (outside a clip box entirely).
   */
  const clippingOf = (
    rect: DOMRect,
    start: Element | null,
    startPosition: string,
    inline: boolean,
  ): Clipping | null => {
    const slackY = inline ? Math.max(2, 0.3 * parseFloat(styleOf(start ?? root).fontSize)) : TOLERANCE;
    let position = startPosition;
    for (let el = start; el && el !== document.body && el !== root; el = el.parentElement) {
      const style = styleOf(el);
      const containing =
        position === 'fixed'
          ? transformsContainingBlock(style)
          : position === 'absolute'
            ? style.position !== 'static' || transformsContainingBlock(style)
            : true;
      if (!containing) continue;
      position = style.position;
      if (truncatesByDesign(style) || labelledScrollRegion(el, style)) return null;
      // Content past a scroll box is reached by scrolling it; the sideways check below names an
      // unlabelled one.
      if (scrolls(style.overflowX) || scrolls(style.overflowY)) return null;
      const clipX = clips(style.overflowX);
      const clipY = clips(style.overflowY);
      if (!clipX && !clipY) continue;
      const outer = el.getBoundingClientRect();
      const left = outer.left + el.clientLeft;
      const top = outer.top + el.clientTop;
      const clipBox = { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
      const hiddenWhole =
        (clipX && (rect.right <= clipBox.left + TOLERANCE || rect.left >= clipBox.right - TOLERANCE)) ||
        (clipY && (rect.bottom <= clipBox.top + slackY || rect.top >= clipBox.bottom - slackY));
      if (hiddenWhole) return null;
      const edges: Array<[string, number]> = [];
      if (clipX)
        edges.push(['left', clipBox.left - rect.left - TOLERANCE], ['right', rect.right - clipBox.right - TOLERANCE]);
      if (clipY)
        edges.push(['top', clipBox.top - rect.top - slackY], ['bottom', rect.bottom - clipBox.bottom - slackY]);
      const worst = edges.sort((x, y) => y[1] - x[1])[0];
      if (worst && worst[1] > 0) return { clipper: el, amount: worst[1], edge: worst[0], clipBox };
    }
    // The viewport clips sideways too: past its left edge nothing scrolls, past the right edge
    // only if the page hides its overflow (otherwise (a) reports it).
    const viewport = { left: 0, right: viewportWidth, top: rect.top, bottom: rect.bottom };
    if (rect.right <= TOLERANCE || rect.left >= viewportWidth - TOLERANCE) return null;
    if (rect.left < -TOLERANCE) return { clipper: null, amount: -rect.left, edge: 'left', clipBox: viewport };
    if (rect.right > viewportWidth + TOLERANCE && root.scrollWidth <= viewportWidth + TOLERANCE) {
      return { clipper: null, amount: rect.right - viewportWidth, edge: 'right', clipBox: viewport };
    }
    return null;
  };

  const reported = new Map<Element, Element | null>();
  const report = (el: Element, label: string, rect: DOMRect, clipping: Clipping) => {
    // A child cut off by the same container as its already reported parent adds nothing.
    for (let up = el.parentElement; up && up !== clipping.clipper; up = up.parentElement) {
      if (reported.has(up) && reported.get(up) === clipping.clipper) return;
    }
    reported.set(el, clipping.clipper);
    const by = clipping.clipper
      ? `${cssPath(clipping.clipper)} (overflow ${styleOf(clipping.clipper).overflowX}/${styleOf(clipping.clipper).overflowY}, ${box(clipping.clipBox)})`
      : `the viewport (0..${viewportWidth})`;
    problems.push(
      `${label} [${box(rect)}] is cut off ${px(clipping.amount)}px past the ${clipping.edge} edge of ${by}`,
    );
  };

  // (b) Elements cut off by a clipping ancestor or the viewport.
  for (const el of elements) {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || !visible(el)) continue;
    const style = styleOf(el);
    const clipping = clippingOf(rect, el.parentElement, style.position, style.display.startsWith('inline'));
    if (clipping) report(el, cssPath(el), rect, clipping);
  }
  // …text too: a label cut off inside a fixed-size button has no element of its own.
  const range = document.createRange();
  for (const { text, parent } of texts) {
    if (!visible(parent)) continue;
    range.selectNodeContents(text);
    const rect = range.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const clipping = clippingOf(rect, parent, 'static', true);
    if (clipping && !reported.has(parent)) {
      report(parent, `${cssPath(parent)} › text "${text.data.trim().slice(0, 40)}"`, rect, clipping);
    }
  }

  // (b) Boxes that scroll sideways without being a labelled, focusable scroll region.
  for (const el of elements) {
    if (LEAVES.has(el.localName) || el === document.body) continue;
    const style = styleOf(el);
    if (!scrolls(style.overflowX) || labelledScrollRegion(el, style) || truncatesByDesign(style) || !visible(el))
      continue;
    if (el.scrollWidth > el.clientWidth + TOLERANCE) {
      problems.push(
        `${cssPath(el)} scrolls sideways (content ${el.scrollWidth}px in ${el.clientWidth}px, overflow-x ${style.overflowX}) without being a labelled, focusable scroll region`,
      );
    }
  }
  return problems;
}

/** Layout settled after a resize: fonts loaded, two frames drawn. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}

/** Waits until data the page fetches after hydration has arrived (admin lists, order forms). */
async function dataLoaded(page: Page): Promise<void> {
  await dataSettled(page);
  await page
    .waitForFunction(
      () => !document.querySelector('[aria-busy="true"]') && !document.body.innerText.includes('Loading…'),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** Resizes the open page through `sizes` and collects what overflows at each width. */
async function problemsAcross(page: Page, label: string, sizes: readonly Size[] = WIDTHS): Promise<string[]> {
  const found: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settle(page);
    const problems = await page.evaluate(findLayoutProblems);
    found.push(...problems.map((problem) => `${label} @ ${size.width}px: ${problem}`));
  }
  return found;
}

interface Visit {
  url: string;
  /** What shows the page is complete (beyond hydration and its data calls). */
  ready?: (page: Page) => Promise<void>;
}

/** Opens each page at the narrowest width, then checks it at every width. */
async function checkPages(page: Page, visits: Visit[]): Promise<string[]> {
  const found: string[] = [];
  followRequests(page);
  for (const visit of visits) {
    await page.setViewportSize(WIDTHS[0]);
    await gotoHydrated(page, visit.url);
    await dataLoaded(page);
    if (visit.ready) await visit.ready(page);
    found.push(...(await problemsAcross(page, visit.url)));
  }
  return found;
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const followers = service('instagram-followers');
const standard = plan(followers.slug, 'Standard');

test.describe.configure({ mode: 'parallel' });

test.use({ viewport: WIDTHS[0] });

test('store pages fit 360 to 1920 px without overflow or clipping', async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
  const email = `overflow.${uniqueSuffix()}@example.com`;
  const orderId = await paidFollowersOrder(request, email);

  const found = await checkPages(page, [
    { url: '/', ready: async (p) => expect(heading(p)).toBeVisible() },
    { url: `/service/${followers.slug}`, ready: async (p) => expect(heading(p)).toBeVisible() },
    {
      url: orderUrl(followers.slug, standard.tiers[0]?.qty ?? 100, standard.type),
      ready: async (p) => expect(p.getByLabel('Instagram Username', { exact: true })).toBeVisible(),
    },
    { url: `/order-confirm/${orderId}`, ready: async (p) => expect(heading(p)).toBeVisible() },
    { url: '/contact' },
    { url: '/faq' },
    { url: '/privacy-policy' },
    { url: '/terms-condition' },
    { url: '/disclaimer' },
    { url: '/refund-policy' },
    { url: '/courses' },
    { url: '/course/ai-for-beginners' },
    { url: '/free-followers' },
    { url: '/login' },
    // Without the e-mailed link's token it explains what to do (decision 041).
    { url: '/accept-invitation', ready: async (p) => expect(p.getByTestId('invitation-refused')).toBeVisible() },
    { url: '/no-such-page' },
  ]);

  // The review page from the order's completion e-mail (decision 039), and a link that does not work.
  found.push(
    ...(await checkPages(page, [
      {
        url: await reviewPathFromMail(email),
        ready: async (p) => expect(p.getByTestId('reviewed-order')).toBeVisible(),
      },
      {
        url: `/review/${'x'.repeat(43)}`,
        ready: async (p) => expect(p.getByTestId('review-link-problem')).toBeVisible(),
      },
    ])),
  );

  // /client after a lookup: the e-mail, the code it was sent, the order list.
  await page.setViewportSize(WIDTHS[0]);
  await gotoHydrated(page, '/client');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await page.getByLabel('6-digit code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Show my orders', exact: true }).click();
  await expect(page.getByTestId('orders-table')).toBeVisible();
  found.push(...(await problemsAcross(page, '/client (orders shown)')));

  expect(found).toEqual([]);
});

test('blog pages fit 360 to 1920 px without overflow or clipping', async ({ page }) => {
  test.setTimeout(120_000);
  const found = await checkPages(page, [
    { url: '/blog' },
    { url: '/blog/category/instagram-updates' },
    { url: '/blog/grow-instagram-account-safely' },
    { url: '/instagram-issue' },
    { url: '/media-update' },
  ]);
  expect(found).toEqual([]);
});

test('admin pages fit 360 to 1920 px without overflow or clipping', async ({ page, request }) => {
  test.setTimeout(180_000);
  const suffix = uniqueSuffix();
  const orderId = await paidFollowersOrder(request, `overflow.admin.${suffix}@example.com`);
  const message = await request.post('/api/contact', {
    headers: { 'x-forwarded-for': clientAddress() },
    data: {
      email: `overflow.admin.${suffix}@example.com`,
      orderId,
      message: `Where is my order? A long word for the layout: ${'overflow'.repeat(8)} ${suffix}`,
    },
  });
  expect(message.status(), await message.text()).toBe(200);
  await storeToken(page, await adminToken(request, E2E_ADMINS.overflow));

  const adminReady = async (p: Page) => expect(heading(p)).toBeVisible();
  const found = await checkPages(page, [
    { url: '/admin/all-orders', ready: adminReady },
    { url: `/admin/orders/${orderId}`, ready: adminReady },
    { url: '/admin/messages', ready: adminReady },
  ]);
  const messageHref = await page.getByTestId('message-link').first().getAttribute('href');
  expect(messageHref).toMatch(/^\/admin\/messages\/\d+$/);
  found.push(
    ...(await checkPages(page, [
      { url: messageHref ?? '', ready: adminReady },
      { url: '/admin/security', ready: adminReady },
      { url: '/admin/mail', ready: adminReady },
      {
        url: '/admin/reviews',
        ready: async (p) => expect(p.getByTestId('reviews-list').or(p.getByTestId('reviews-empty'))).toBeVisible(),
      },
      { url: '/admin/blog', ready: adminReady },
      { url: '/admin/blog/add', ready: adminReady },
      { url: '/admin/blog/grow-instagram-account-safely', ready: adminReady },
      { url: '/admin/dashboard', ready: async (p) => expect(p.getByTestId('dashboard-attention')).toBeVisible() },
      { url: '/admin/admins', ready: async (p) => expect(p.getByTestId('admins-table')).toBeVisible() },
      { url: '/admin/suppliers', ready: async (p) => expect(p.getByTestId('panels')).toBeVisible() },
      { url: '/admin/payment-methods', ready: async (p) => expect(p.getByTestId('payment-methods')).toBeVisible() },
      {
        url: '/admin/suppliers/1/services',
        ready: async (p) => expect(p.getByTestId('services-count')).toBeVisible(),
      },
      { url: '/admin/catalogue', ready: async (p) => expect(p.getByTestId('catalogue-groups')).toBeVisible() },
      {
        url: '/admin/catalogue/services/instagram-followers',
        ready: async (p) => expect(p.getByTestId('service-form')).toBeVisible(),
      },
      {
        url: '/admin/catalogue/groups/tiktok/new',
        ready: async (p) => expect(p.getByTestId('service-form')).toBeVisible(),
      },
      {
        url: '/admin/audit',
        ready: async (p) => expect(p.getByTestId('audit-entries').or(p.getByTestId('audit-empty'))).toBeVisible(),
      },
    ])),
  );
  expect(found).toEqual([]);
});

test('control: the checker catches a wide element and a clipped one, and allows the designed exceptions', async ({
  page,
}) => {
  await gotoHydrated(page, '/faq');
  const narrow = [WIDTHS[0]];
  await page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) throw new Error('no <main>');
    main.insertAdjacentHTML(
      'beforeend',
      `<div data-testid="allowed">
         <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap">${'screen reader text '.repeat(30)}</span>
         <p style="width:120px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">${'truncated on purpose '.repeat(10)}</p>
         <div role="region" aria-label="Wide table" tabindex="0" style="width:200px;overflow-x:auto"><div style="width:900px">wide</div></div>
       </div>`,
    );
  });
  expect(await problemsAcross(page, 'control', narrow)).toEqual([]);

  await page.evaluate(() => {
    document
      .querySelector('main')
      ?.insertAdjacentHTML('beforeend', '<div data-testid="too-wide" style="width:2000px;height:10px"></div>');
  });
  const wide = await problemsAcross(page, 'control', narrow);
  expect(wide.join('\n')).toContain('document is');
  expect(wide.join('\n')).toContain('div[data-testid="too-wide"]');

  await page.evaluate(() => {
    document.querySelector('[data-testid="too-wide"]')?.remove();
    document
      .querySelector('main')
      ?.insertAdjacentHTML(
        'beforeend',
        '<div data-testid="clipper" style="width:100px;height:40px;overflow:hidden"><button data-testid="clipped" style="width:300px">Choose a package</button></div>' +
          '<div data-testid="scroller" style="width:100px;overflow-x:auto"><p style="width:400px">unlabelled sideways scroll</p></div>',
      );
  });
  const clipped = (await problemsAcross(page, 'control', narrow)).join('\n');
  expect(clipped).not.toContain('document is');
  expect(clipped).toMatch(
    /button\[data-testid="clipped"\].* is cut off \d+px past the right edge of [^\n]*div\[data-testid="clipper"\]/,
  );
  expect(clipped).toContain('div[data-testid="scroller"] scrolls sideways');
});
