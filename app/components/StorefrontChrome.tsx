/**
 * The storefront's chrome: the sale bar, the header and the footer. Pages without them (the
 * blog, the order form, the admin login: app/layout-rules.ts) never download this module; the
 * root layout loads it lazily where they show (decision 037: a third of the root chunk, which
 * every page loaded before). The server renders them into the first HTML as before, and the
 * browser hydrates them as soon as this chunk arrives, so nothing moves.
 */
export { Footer } from './Footer.tsx';
export { SiteHeader } from './SiteHeader.tsx';
export { TopBar } from './TopBar.tsx';
