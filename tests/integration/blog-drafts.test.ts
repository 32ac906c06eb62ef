/**
 * Blog drafts and scheduled posts: a post the owner saved as a draft, or scheduled for later, is
 * invisible to every public read (list, search, category counts, post URL, related posts, feed)
 * until its publish time passes on the store's clock; an owner's token sees it all along.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogPost, BlogPostSummary } from '../../core/blog/contracts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

interface Envelope<T> {
  isSuccessful: boolean;
  message: string;
  data: T;
}

const HOUR = 60 * 60 * 1000;

describe.each(dialects)('blog drafts and scheduled posts on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let address = 0;
  const clock = createTestClock();
  const nextAddress = () => `10.43.${Math.floor(address / 250) % 250}.${(address++ % 250) + 1}`;
  const auth = () => ({ authorization: `Bearer ${token}` });

  const write = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, string>) => {
    const response = await t.app.inject({ method, url, payload, headers: auth(), remoteAddress: nextAddress() });
    expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
    return response.json<Envelope<BlogPost>>().data;
  };
  const publicList = async (query = '') => {
    const response = await t.app.inject({ method: 'GET', url: `/api/blog${query}`, remoteAddress: nextAddress() });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Envelope<BlogPostSummary[]>>().data.map((post) => post.slug);
  };
  const ownerList = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/blog?size=50',
      headers: auth(),
      remoteAddress: nextAddress(),
    });
    expect(response.headers['cache-control']).toBe('private, no-store');
    return response.json<Envelope<BlogPostSummary[]>>().data;
  };
  const publicDetail = (slug: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/blog/${slug}`, headers, remoteAddress: nextAddress() });

  /** Every public read, for one post: true where it shows. */
  const seenByPublic = async (slug: string, word: string, categorySlug: string) => ({
    list: (await publicList('?size=50')).includes(slug),
    search: (await publicList(`?keyword=${word}`)).includes(slug),
    category: (await publicList(`?category=${categorySlug}`)).includes(slug),
    detail: (await publicDetail(slug)).statusCode === 200,
    categoryCount: (await t.store.blog.findCategory(categorySlug))?.postCount ?? 0,
    feed: (await t.store.blog.allPostsForFeed(100)).some((post) => post.slug === slug),
    related: await (async () => {
      const anchor = await t.store.blog.findPost('anchor-post');
      if (!anchor) throw new Error('the anchor post is missing');
      return (await t.store.blog.relatedPosts(anchor, 50)).some((post) => post.slug === slug);
    })(),
  });
  const nowhere = {
    list: false,
    search: false,
    category: false,
    detail: false,
    categoryCount: 0,
    feed: false,
    related: false,
  };
  const everywhere = {
    list: true,
    search: true,
    category: true,
    detail: true,
    categoryCount: 1,
    feed: true,
    related: true,
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { overrides: { clock: clock.now } });
    const credentials = { email: 'drafts.owner@example.com', password: 'a long enough drafts password' };
    await t.store.adminAuth.createAdmin(credentials.email, credentials.password);
    token = await adminToken(t, credentials, '10.43.250.1');
    await write('POST', '/api/blog', { title: 'Anchor post', category: 'Anchors', description: '<p>Anchor.</p>' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps a draft off every public read, shows it to the owner, and publishes it on request', async () => {
    const draft = await write('POST', '/api/blog', {
      title: 'Zanzibar draft',
      category: 'Draft desk',
      description: '<p>Zanzibar words.</p>',
      status: 'draft',
    });
    expect(draft.publishedAt).toBeNull();
    expect(await seenByPublic(draft.slug, 'zanzibar', 'draft-desk')).toEqual(nowhere);
    expect((await ownerList()).find((post) => post.slug === draft.slug)).toMatchObject({ publishedAt: null });
    const asOwner = await publicDetail(draft.slug, auth());
    expect(asOwner.statusCode).toBe(200);

    const published = await write('PATCH', `/api/blog/${draft.id}`, { status: 'published' });
    expect(published.publishedAt).not.toBeNull();
    expect(await seenByPublic(draft.slug, 'zanzibar', 'draft-desk')).toEqual(everywhere);

    // Back to draft: gone from the public again.
    await write('PATCH', `/api/blog/${draft.id}`, { status: 'draft' });
    expect(await seenByPublic(draft.slug, 'zanzibar', 'draft-desk')).toEqual(nowhere);
  });

  it('shows a scheduled post only once the clock passes its time, with no one acting', async () => {
    const at = new Date(clock.now().getTime() + 2 * HOUR).toISOString();
    const scheduled = await write('POST', '/api/blog', {
      title: 'Quokka scheduled',
      category: 'Later desk',
      description: '<p>Quokka words.</p>',
      status: 'published',
      publishAt: at,
    });
    expect(scheduled.publishedAt).toBe(at);
    expect(await seenByPublic(scheduled.slug, 'quokka', 'later-desk')).toEqual(nowhere);
    clock.advance(HOUR);
    expect(await seenByPublic(scheduled.slug, 'quokka', 'later-desk')).toEqual(nowhere);
    clock.advance(HOUR + 1000);
    expect(await seenByPublic(scheduled.slug, 'quokka', 'later-desk')).toEqual(everywhere);
  });

  it('keeps a live post’s date when it is saved as published again, and refuses a time that is not one', async () => {
    const live = await write('POST', '/api/blog', { title: 'Steady post', description: '<p>Steady.</p>' });
    expect(live.publishedAt).toBe(live.createdAt);
    clock.advance(HOUR);
    const again = await write('PATCH', `/api/blog/${live.id}`, { status: 'published', title: 'Steady post, edited' });
    expect(again.publishedAt).toBe(live.publishedAt);

    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/blog/${live.id}`,
      payload: { publishAt: 'next tuesday' },
      headers: auth(),
      remoteAddress: nextAddress(),
    });
    expect(bad.statusCode).toBe(400);
  });
});
