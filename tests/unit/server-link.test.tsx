import { renderToString } from 'react-dom/server';
import {
  type LinkProps,
  type NavLinkProps,
  Link as RouterLink,
  NavLink as RouterNavLink,
  StaticRouter,
} from 'react-router';
import { describe, expect, it } from 'vitest';
import { Link as ServerLink, NavLink as ServerNavLink } from '../../app/components/Link.server.tsx';

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

/** The class the store's menus give: a function of the link's state. */
const menuClass: NavLinkProps['className'] = ({ isActive, isPending, isTransitioning }) =>
  `item${isActive ? ' on' : ''}${isPending ? ' pending' : ''}${isTransitioning ? ' moving' : ''}`;

/** Menu links, each rendered at pages where it is and is not the current one. */
const NAV_LINKS: { name: string; props: NavLinkProps }[] = [
  { name: 'a section (active below it)', props: { to: '/blog', className: menuClass, children: 'Blog' } },
  { name: 'a page that ends there', props: { to: '/blog', end: true, className: menuClass, children: 'Blog' } },
  { name: 'the home page', props: { to: '/', end: true, className: menuClass, children: 'Services' } },
  { name: 'a plain class', props: { to: '/service/instagram-likes', className: 'pill', children: 'Likes' } },
  { name: 'no class', props: { to: '/service/instagram-likes', children: 'Likes' } },
  { name: 'a trailing slash', props: { to: '/blog/', children: 'Blog' } },
  { name: 'a query', props: { to: '/blog?page=2', children: 'Next' } },
  { name: 'another case', props: { to: '/BLOG', children: 'Blog' } },
  { name: 'case-sensitive', props: { to: '/BLOG', caseSensitive: true, children: 'Blog' } },
  { name: 'its own aria-current', props: { to: '/blog', 'aria-current': 'location', children: 'Blog' } },
  {
    name: 'style and children from its state',
    props: {
      to: '/instagram-issue',
      style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }),
      children: ({ isActive }) => (isActive ? 'Here' : 'There'),
    },
  },
  { name: 'a path the router resolves', props: { to: '../blog', className: menuClass, children: 'Blog' } },
  { name: 'an object', props: { to: { pathname: '/blog' }, className: menuClass, children: 'Blog' } },
];
const PAGES = [
  '/',
  '/blog',
  '/blog/',
  '/blog/some-post',
  '/blogging',
  '/Blog',
  '/service/instagram-likes',
  '/instagram-issue',
];

describe("the store's NavLink on the server", () => {
  it.each(NAV_LINKS)("renders the router's own markup for $name on every page", ({ props }) => {
    for (const page of PAGES) {
      expect(rendered(<ServerNavLink {...props} />, page), page).toBe(rendered(<RouterNavLink {...props} />, page));
    }
  });

  it('marks the current page', () => {
    expect(rendered(<ServerNavLink to="/blog">Blog</ServerNavLink>, '/blog')).toBe(
      '<a aria-current="page" class="active" href="/blog" data-discover="true">Blog</a>',
    );
  });
});
