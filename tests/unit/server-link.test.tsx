import { renderToString } from 'react-dom/server';
import { type LinkProps, Link as RouterLink, StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Link as ServerLink } from '../../app/components/Link.server.tsx';

/** Rendered where a page's links are: inside the router, at some page's address. */
function rendered(link: React.ReactElement, at = '/blog/some-post'): string {
  return renderToString(<StaticRouter location={at}>{link}</StaticRouter>);
}

/** What the store's links pass: classes, titles, state, a target, click handlers. */
const LINKS: { name: string; props: LinkProps }[] = [
  { name: 'a plain path', props: { to: '/contact', children: 'Contact' } },
  { name: 'a path with a query and a hash', props: { to: '/blog?page=2&s=a%20b#list', children: 'Next' } },
  { name: 'the home page', props: { to: '/', className: 'font-bold', title: 'Home', children: 'Home' } },
  {
    name: 'everything only a click reads',
    props: {
      to: '/order/instagram-followers',
      state: { from: 'home' },
      replace: true,
      preventScrollReset: true,
      viewTransition: true,
      reloadDocument: true,
      onClick: () => undefined,
      children: 'Buy',
    },
  },
  { name: 'a new tab', props: { to: '/privacy-policy', target: '_blank', rel: 'noopener', children: 'Privacy' } },
  { name: 'no route discovery', props: { to: '/faq', discover: 'none', children: 'FAQ' } },
  { name: 'prefetch on intent', props: { to: '/faq', prefetch: 'intent', children: 'FAQ' } },
  { name: 'a path the router resolves', props: { to: '../blog', children: 'Blog' } },
  { name: 'another origin', props: { to: '//example.com/x', children: 'Elsewhere' } },
  { name: 'an absolute URL', props: { to: 'https://example.com/x', children: 'Elsewhere' } },
  { name: 'an object', props: { to: { pathname: '/blog', search: '?page=3' }, children: 'Blog' } },
  { name: 'prefetch when rendered', props: { to: '/courses', prefetch: 'render', children: 'Courses' } },
];

describe("the store's Link on the server", () => {
  it.each(LINKS)("renders the router's own markup for $name", ({ props }) => {
    expect(rendered(<ServerLink {...props} />)).toBe(rendered(<RouterLink {...props} />));
  });

  it('renders an anchor that the browser router discovers', () => {
    expect(rendered(<ServerLink to="/service/instagram-likes">Likes</ServerLink>)).toBe(
      '<a href="/service/instagram-likes" data-discover="true">Likes</a>',
    );
  });
});
