/**
 * What the public pages say about a post's publish time: a scheduled post appears on the cached
 * pages (list, post, feed, sitemap) as soon as the store's clock passes its time, not a page-cache
 * lifetime later, and every public date is the publish date, not the day the post was written.
 * Rendered by the real server build, page cache on, with the store's clock moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogPost } from '../../core/blog/contracts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe.each(dialects)('scheduled posts on the cached public pages on %s', (dialect) => {
  let t: TestApp;
  let address = 0;
  const clock = createTestClock();
  const nextAddress = () => `10.47.${Math.floor(address / 250) % 250}.${(address++ % 250) + 1}`;

  const credentials = { email: 'schedule.owner@example.com', password: 'a long enough schedule password' };
  /** Logs in for each write: the moved clock outlives a session. */
  const write = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, string>) => {
    const token = await adminToken(t, credentials, nextAddress(), clock.now);
    const response = await t.app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
    return response.json<{ data: BlogPost }>().data;
  };
  const page = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: nextAddress() });

  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true, overrides: { clock: clock.now } });
    await t.store.adminAuth.createAdmin(credentials.email, credentials.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a scheduled post on the cached list, post page, feed and sitemap once its time passes', async () => {
    const at = new Date(clock.now().getTime() + 2 * HOUR).toISOString();
    const scheduled = await write('POST', '/api/blog', {
      title: 'Wombat scheduled',
      description: '<p>Wombat words.</p>',
      status: 'published',
      publishAt: at,
    });
    const shows = async () => ({
      list: (await page('/blog')).body.includes('Wombat scheduled'),
      post: (await page(`/blog/${scheduled.slug}`)).statusCode,
      feed: (await page('/blog/feed.xml')).body.includes('Wombat scheduled'),
      sitemap: (await page('/sitemap.xml')).body.includes(`/blog/${scheduled.slug}<`),
    });
    // Read twice: the second answer comes from the page cache.
    expect(await shows()).toEqual({ list: false, post: 404, feed: false, sitemap: false });
    expect(await shows()).toEqual({ list: false, post: 404, feed: false, sitemap: false });

    clock.advance(HOUR);
    expect(await shows()).toEqual({ list: false, post: 404, feed: false, sitemap: false });
    clock.advance(HOUR + 1000);
    expect(await shows()).toEqual({ list: true, post: 200, feed: true, sitemap: true });
  });

  it("serves the owner's preview address with nothing of the draft in it, noindex, and never from the page cache", async () => {
    const draft = await write('POST', '/api/blog', {
      title: 'Quoll drafted',
      description: '<p>Quoll secret words.</p>',
      status: 'draft',
    });
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await page(`/admin/blog/${draft.slug}/preview`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.body).toMatch(/<meta name="robots" content="noindex, nofollow"/);
      expect(response.body).not.toContain('Quoll');
      nonces.push(/ nonce="([^"]+)"/.exec(response.body)?.[1] ?? '');
    }
    // Rendered afresh each time: the page cache kept nothing.
    expect(nonces[0]).not.toBe(nonces[1]);
    // The admin API gives the draft only to a token.
    expect((await page(`/api/blog/${draft.slug}`)).statusCode).toBe(404);
  });

  it('dates a post by when it went live on the list, the post page, its JSON-LD, the feed and the sitemap', async () => {
    const draft = await write('POST', '/api/blog', {
      title: 'Numbat drafted',
      description: '<p>Numbat words.</p>',
      status: 'draft',
    });
    clock.advance(3 * DAY);
    const published = await write('PATCH', `/api/blog/${draft.id}`, { status: 'published' });
    const publishedAt = published.publishedAt!;
    expect(publishedAt.slice(0, 10)).not.toBe(published.createdAt.slice(0, 10));

    const postPage = (await page(`/blog/${draft.slug}`)).body;
    expect(postPage).toContain(`dateTime="${publishedAt}"`);
    expect(postPage).not.toContain(`dateTime="${published.createdAt}"`);
    expect(postPage).toMatch(new RegExp(`"datePublished":"${publishedAt.replace(/[.]/g, '\\.')}"`));

    const list = (await page('/blog')).body;
    expect(list).toContain(`dateTime="${publishedAt}"`);
    expect(list).not.toContain(`dateTime="${published.createdAt}"`);

    const feed = (await page('/blog/feed.xml')).body;
    const item = feed.slice(feed.indexOf('<title>Numbat drafted</title>'));
    expect(item.slice(0, item.indexOf('</item>'))).toContain(
      `<pubDate>${new Date(publishedAt).toUTCString()}</pubDate>`,
    );

    // A post scheduled when written: the sitemap's lastmod is when it went live, after its last edit.
    const at = new Date(clock.now().getTime() + HOUR).toISOString();
    const later = await write('POST', '/api/blog', {
      title: 'Bilby scheduled',
      description: '<p>Bilby words.</p>',
      status: 'published',
      publishAt: at,
    });
    clock.advance(HOUR + 1000);
    const sitemap = (await page('/sitemap.xml')).body;
    const entry = sitemap.slice(sitemap.indexOf(`/blog/${later.slug}<`));
    expect(entry.slice(0, entry.indexOf('</url>'))).toContain(`<lastmod>${at}</lastmod>`);
  });
});
