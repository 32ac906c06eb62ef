import { Link } from './Link.tsx';
import { HELP_LINKS } from '../content/legal/links.ts';
import type { FooterGroup } from './Footer.tsx';
import { Logo } from './Logo.tsx';

type HeaderGroups = readonly Pick<FooterGroup, 'title' | 'services'>[];

/** The header's links: each platform's first service page, then help (FAQ, contact, orders, courses). */
function headerLinks(groups: HeaderGroups): { to: string; label: string; wide: boolean }[] {
  return [
    ...groups.flatMap((group) =>
      group.services[0] ? [{ to: `/service/${group.services[0].slug}`, label: group.title, wide: false }] : [],
    ),
    // From 640 px the row holds the platforms, FAQ and My orders; Contact and Courses join at 768 px.
    ...HELP_LINKS.map((link) => ({ ...link, wide: link.to === '/contact' || link.to === '/courses' })),
  ];
}

/**
 * Storefront header: logo and one row of links from 640 px; below that a menu button opens the
 * same links as a list. The list is a popover the button opens by itself (`popovertarget`), so the
 * menu works on pages without JavaScript too; the browser closes it on Escape or a click outside,
 * returns the focus to the button and tells assistive technology whether it is expanded. On a page
 * the router drives, a chosen link navigates without a page load, so it closes the list itself.
 */
export function SiteHeader({ groups }: { groups: HeaderGroups }) {
  const links = headerLinks(groups);
  return (
    <header data-testid="site-header" className="border-b border-line bg-white">
      <nav aria-label="Main" className="group mx-auto max-w-7xl px-4">
        <div className="flex h-16 items-center justify-between gap-4">
          <Link to="/" aria-label="Boostly home" className="shrink-0 rounded-card">
            <Logo />
          </Link>
          <ul className="hidden items-center gap-5 text-sm font-semibold whitespace-nowrap text-gray-700 sm:flex">
            {links.map((link) => (
              <li key={link.to} className={link.wide ? 'hidden md:list-item' : undefined}>
                <Link className="hover:text-brand-700" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <button
            type="button"
            popoverTarget="site-menu"
            aria-controls="site-menu"
            className="site-menu-button flex h-11 items-center gap-2 rounded-card border border-line px-3 text-sm font-semibold text-ink sm:hidden"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
            >
              {/* Bars while closed, a cross while open: the nav knows from the popover's own state. */}
              <path
                strokeLinecap="round"
                d="M4 7h16M4 12h16M4 17h16"
                className="group-has-[#site-menu:popover-open]:hidden"
              />
              <path
                strokeLinecap="round"
                d="M6 6l12 12M18 6 6 18"
                className="hidden group-has-[#site-menu:popover-open]:inline"
              />
            </svg>
            Menu
          </button>
        </div>
        {/* Below the header row (app.css places it), over the page. A chosen link closes it: its
            click bubbles up to the list. */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- only catches clicks bubbling from the links, which are keyboard-operable themselves */}
        <ul
          id="site-menu"
          popover="auto"
          className="site-menu grid gap-1 border-y border-line bg-white px-4 py-2 text-base font-semibold text-ink shadow-card sm:hidden"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) event.currentTarget.hidePopover();
          }}
        >
          {links.map((link) => (
            <li key={link.to}>
              <Link className="block rounded-card px-2 py-3 hover:bg-brand-50 hover:text-brand-800" to={link.to}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
