/**
 * Pages are cached like the store's and invalidated when a post changes (decision 018): the page
 * cache key carries the blog's content version, so a blog write by this instance shows at once
 * and one by another instance on the same database within about a second. Every render draws a
 * new CSP nonce into its HTML (a cached page repeats its bytes), which is what these tests watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../core/blog/blog.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';

describe.each(dialects)('page cache and blog writes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const nonceOf = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const nonce = / nonce="([^"]+)"/.exec(response.body)?.[1];
    expect(nonce).toBeTruthy();
    return nonce;
  };

  it('renders cached pages again after a blog write on this instance', async () => {
    const cached = await nonceOf('/');
    expect(await nonceOf('/')).toBe(cached);
    const created = await t.store.blog.createPost({ title: 'Cache buster', description: '<p>New.</p>' });
    expect(created.ok).toBe(true);
    const fresh = await nonceOf('/');
    expect(fresh).not.toBe(cached);
    expect(await nonceOf('/')).toBe(fresh);
  });

  it('renders them again after another instance writes to the same database', async () => {
    const cached = await nonceOf('/');
    expect(await nonceOf('/')).toBe(cached);
    const otherInstance = createBlog({ db: t.database.db });
    // The post the first test wrote (the first test runs first: vitest keeps the order).
    expect(await otherInstance.deletePost('cache-buster')).toBe(true);
    await waitFor(async () => (await nonceOf('/')) !== cached, {
      timeout: 5_000,
      interval: 100,
      message: "a fresh render after another instance's write",
    });
  });
});
