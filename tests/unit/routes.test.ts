import { describe, expect, it } from 'vitest';
import { orderPath, parseOrderParam } from '../../core/catalogue/order-path.ts';
import { showsFooter, showsTopBar } from '../../app/layout-rules.ts';

describe('order path', () => {
  it('joins slug and quantity with GOI and carries the plan type', () => {
    expect(orderPath('tiktok-followers', 1000, 'Popular')).toBe('/order/tiktok-followersGOI1000?type=Popular');
  });

  it('parses what it builds', () => {
    expect(parseOrderParam('instagram-followersGOI1000')).toEqual({ slug: 'instagram-followers', qty: 1000 });
    expect(parseOrderParam('aGOI1')).toEqual({ slug: 'a', qty: 1 });
  });

  it.each([
    '',
    'GOI100',
    'instagram-followers',
    'instagram-followersGOI',
    'instagram-followersGOI0',
    'instagram-followersGOI12a',
    'Instagram-FollowersGOI10',
    'bad_slugGOI10',
    'instagram-followersGOI01',
  ])('rejects %j', (param) => {
    expect(parseOrderParam(param)).toBeNull();
  });
});

describe('layout rules (spec section 2)', () => {
  it.each(['/', '/service/instagram-likes', '/faq', '/contact', '/client', '/order-confirm/abc', '/courses'])(
    'shows top bar and footer on %s',
    (pathname) => {
      expect(showsTopBar(pathname)).toBe(true);
      expect(showsFooter(pathname)).toBe(true);
    },
  );

  it.each([
    '/login',
    '/register',
    '/forgot-password',
    '/blog',
    '/blog/some-post',
    '/instagram-issue',
    '/media-update',
    '/order/instagram-followersGOI100',
  ])('hides both on %s', (pathname) => {
    expect(showsTopBar(pathname)).toBe(false);
    expect(showsFooter(pathname)).toBe(false);
  });

  it('hides the storefront top bar, header and footer in the admin area (decision 034)', () => {
    for (const pathname of ['/admin', '/admin/all-orders', '/admin/blog/add']) {
      expect(showsTopBar(pathname)).toBe(false);
      expect(showsFooter(pathname)).toBe(false);
    }
  });

  it('does not mistake look-alike paths for hidden pages', () => {
    expect(showsTopBar('/blogger')).toBe(true);
    expect(showsFooter('/administrator')).toBe(true);
    expect(showsTopBar('/administrator')).toBe(true);
  });
});
