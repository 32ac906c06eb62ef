/**
 * The order page's lazily loaded parts (its header, the activity line, the trust list, the
 * secure-checkout note: app/components/order/lazy-extras.tsx, decision 050) are in the server's
 * HTML in place, on the first render after a boot too: none is left out for the browser to fill in,
 * and none is streamed after the page as a hidden copy moved in by a script (a layout shift on a
 * phone, kept by caches). Needs the production build, like every server-rendered page test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPath } from '../../core/catalogue/order-path.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { dialects } from '../support/databases.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { PHONE_BROWSER } from '../support/html.ts';

const service = catalogueSeed.groups[0].services[0];
const plan = service.plans[0];
const tier = plan.tiers[0];

describe.each(dialects)('the order page on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders its lazily loaded parts in place on the first render after a boot', async () => {
    // The first request of this app: nothing has rendered (or loaded a lazy part) before it.
    const response = await t.app.inject({
      method: 'GET',
      url: orderPath(service.slug, tier.qty, plan.type),
      headers: PHONE_BROWSER,
    });
    expect(response.statusCode).toBe(200);
    // The page as sent before React Router's data script; a part streamed late would come after it,
    // in a hidden copy moved in by a script (React Router's own data stream always comes that way).
    const page = response.body.slice(0, response.body.indexOf('window.__reactRouterContext'));

    const header = page.indexOf('data-testid="report-issue"');
    const heading = page.indexOf('id="get-started-heading"');
    const form = page.indexOf('data-testid="quantity-dropdown"');
    const note = page.indexOf('data-testid="secure-checkout"');
    const trust = page.indexOf('Gradual delivery that starts within 24-72 hours');
    // In the page's order: header, heading, form, the note under Continue, the trust list beside.
    expect(header).toBeGreaterThan(0);
    expect(header).toBeLessThan(heading);
    expect(heading).toBeLessThan(form);
    expect(form).toBeLessThan(note);
    expect(note).toBeLessThan(trust);
    expect(page).toContain('Test mode: payments run in a sandbox, no card is asked for or charged.');
    expect(page).toContain('aria-label="Back to home"');
  });

  it('renders the same parts on the page for an unknown package', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/order/no-such-serviceGOI100?type=Standard',
      headers: PHONE_BROWSER,
    });
    // Its real status (an unknown package), with the same page parts.
    expect(response.statusCode).toBe(404);
    const page = response.body.slice(0, response.body.indexOf('window.__reactRouterContext'));
    expect(page).toContain('data-testid="order-error"');
    expect(page).toContain('data-testid="report-issue"');
    expect(page).toContain('Gradual delivery that starts within 24-72 hours');
  });
});
