/**
 * The storefront's claims about subscriptions (decision 057), per dialect, in the server-rendered
 * HTML: the home page, the FAQ, the footer, the terms and the refund policy say nothing of
 * automatic likes, daily followers or subscriptions while the catalogue sells none; once a
 * service of a kind is published they name it with its own terms (period, posts, delay, the
 * renewal by e-mailed link, the refund rule), and they stop again when it goes back to draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueEditor, createCatalogueEditor } from '../../core/catalogue/editor.ts';
import { supplierDirectory } from '../../server/api/admin-catalogue.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';
import { dialects } from '../support/databases.ts';
import { bodyText } from '../support/html.ts';

const PAGES = ['/', '/faq', '/terms-condition', '/refund-policy'] as const;
/** Words no page may say while nothing of the kind is sold ("subscribers" is a YouTube package). */
const CLAIMS = /automatic likes|daily followers|subscription|renew/i;

function subscriptionInput(slug: string, name: string, kind: string, qtys: number[], terms: object) {
  const input = draftServiceInput(slug, name);
  const plan = input.plans[0];
  const tier = plan?.tiers[0];
  if (!plan || !tier) throw new Error('the draft input has no tier');
  return {
    ...input,
    targetKind: 'instagram_username',
    status: 'published',
    kind,
    terms,
    plans: [{ ...plan, tiers: qtys.map((qty) => ({ ...tier, qty, text: `${qty}`, supplierServiceId: '7101' })) }],
  };
}

describe.each(dialects)('subscription claims on the storefront on %s', (dialect) => {
  let t: TestApp;
  let editor: CatalogueEditor;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
    editor = createCatalogueEditor({
      db: t.database.db,
      catalogue: t.store.catalogue,
      suppliers: supplierDirectory(t.database.db),
    });
    // A seed may sell subscriptions already: this suite starts from a catalogue that sells none.
    const seeded = await t.database.db
      .selectFrom('services')
      .select('slug')
      .where('kind', '!=', 'package')
      .where('status', '=', 'published')
      .execute();
    for (const { slug } of seeded) {
      const document = await editor.getService(slug);
      if (!document) continue;
      const { groupSlug: _group, publishedAt: _published, revision, ...fields } = document;
      const hidden = await editor.saveService(slug, revision, { ...fields, status: 'draft' });
      expect(hidden.ok, JSON.stringify(hidden)).toBe(true);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const text = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return bodyText(response.body);
  };

  it('claims nothing while the catalogue sells no subscription', async () => {
    for (const url of PAGES) expect(await text(url), url).not.toMatch(CLAIMS);
    // The packages' own promise stays: a one-off order cannot be cancelled.
    expect(await text('/faq')).toContain('it cannot be cancelled or modified afterwards');
  });

  it('names automatic likes with their terms once published, and nothing of daily followers', async () => {
    const created = await editor.createService(
      'instagram',
      subscriptionInput('claims-auto-likes', 'Automatic Claims Likes', 'automatic_likes', [50, 100, 1000], {
        periodDays: 30,
        posts: 20,
        delayMinutes: 90,
      }),
    );
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const line =
      'Automatic Claims Likes: 50 to 1,000 likes on each new post, on up to 20 new posts in 30 days, starting 1 hour 30 minutes after each post, paid once per period';

    const home = await text('/');
    expect(home).toContain('Also by the period: automatic likes');
    expect(home).toContain(line);
    expect(home).toContain('we keep no card and never charge you automatically');
    // The footer, on every storefront page.
    expect(home).toContain('Automatic likes by the period: no stored card, no automatic charge.');
    expect(await text('/faq')).toContain('Automatic likes by the period');

    const faq = await text('/faq');
    expect(faq).toContain('What are automatic likes?');
    expect(faq).toContain(line);
    expect(faq).toContain('3 days before a period ends we e-mail you a single-use link');
    expect(faq).toContain('automatic likes can be cancelled while they run, from My orders');

    const refunds = await text('/refund-policy');
    expect(refunds).toContain('Subscriptions: automatic likes');
    expect(refunds).toContain(
      'refund the smaller of two shares of what you paid, the share of the posts not yet served and the share of the period not yet used',
    );
    expect(refunds).toContain('A change of mind after paying for a one-off package');

    const terms = await text('/terms-condition');
    expect(terms).toContain(`${line}.`);
    expect(terms).toContain('subscriptions can be cancelled while they run');

    for (const url of PAGES) expect(await text(url), url).not.toMatch(/daily followers/i);

    // Its own page says how it is cancelled; a package's page keeps the packages' answer.
    const own = await text('/service/claims-auto-likes');
    expect(own).toContain('Can I cancel after paying?');
    expect(own).toContain('the share of the posts not yet served and the share of the period not yet used');
    expect(own).not.toContain('Once an order is placed it cannot be cancelled');
    expect(await text('/service/instagram-followers')).toContain('Once an order is placed it cannot be cancelled');
  });

  it('adds daily followers with their own terms, and withdraws every claim when both go back to draft', async () => {
    const created = await editor.createService(
      'instagram',
      subscriptionInput('claims-daily', 'Daily Claims Followers', 'daily_followers', [50], { periodDays: 14 }),
    );
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const home = await text('/');
    expect(home).toContain('Also by the period: automatic likes and daily followers');
    expect(home).toContain('Daily Claims Followers: 50 followers a day for 14 days, paid once per period');
    const refunds = await text('/refund-policy');
    expect(refunds).toContain('refund the share you paid for the followers not delivered yet');

    for (const slug of ['claims-auto-likes', 'claims-daily']) {
      const document = await editor.getService(slug);
      if (!document) throw new Error(`${slug} was created`);
      const { groupSlug: _group, publishedAt: _published, revision, ...fields } = document;
      const hidden = await editor.saveService(slug, revision, { ...fields, status: 'draft' });
      expect(hidden.ok, JSON.stringify(hidden)).toBe(true);
    }
    for (const url of PAGES) expect(await text(url), url).not.toMatch(CLAIMS);
  });
});
