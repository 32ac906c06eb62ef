import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
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
 * same links as a list (Escape or a chosen link closes it, focus returns to the button).
 */
export function SiteHeader({ groups }: { groups: HeaderGroups }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const links = headerLinks(groups);

  useEffect(() => {
    if (!menuOpen) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return (
    <header data-testid="site-header" className="border-b border-line bg-white">
      <nav aria-label="Main" className="mx-auto max-w-7xl px-4">
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
            ref={menuButton}
            type="button"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen((open) => !open)}
            className="flex h-11 items-center gap-2 rounded-card border border-line px-3 text-sm font-semibold text-ink sm:hidden"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
            >
              <path strokeLinecap="round" d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} />
            </svg>
            Menu
          </button>
        </div>
        {/* Always in the page so the button's aria-controls names an element; `hidden` while closed.
            A chosen link closes the menu: its click bubbles up to the list. */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- only catches clicks bubbling from the links, which are keyboard-operable themselves */}
        <ul
          id="site-menu"
          hidden={!menuOpen}
          className="grid gap-1 border-t border-line py-2 text-base font-semibold text-ink sm:hidden"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
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
