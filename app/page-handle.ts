/**
 * What a route says, in its `handle` export, about the JavaScript its page needs.
 *
 * Most public pages are text, links and a few disclosures: they need no framework in the browser.
 * A route that exports `handle = FRAMEWORK_FREE` is still rendered on the server as before, but
 * its document carries no React, no React Router and no module preloads: the server's entry
 * (app/entry.server.tsx) reads the handle, and app/document-scripts.tsx renders only the small
 * plain script of app/plain-page-script.server.ts (the sale countdown and the share button)
 * instead of `<Scripts />`. Its interactive parts are
 * HTML and CSS: `<details name>` disclosures, a popover menu, a dialog opened by an invoker command
 * and plain GET forms. Links from it are ordinary page loads.
 *
 * What such a page gives up: client-side navigation (every link loads a whole document, served
 * from the page cache), the scroll reset and focus handling of the router, and any state kept in
 * React. A page that needs any of these keeps the framework by not exporting this handle.
 */
export interface PageHandle {
  /** `false`: the document loads no framework JavaScript and is never hydrated. */
  readonly hydrate?: boolean;
}

/** The handle of a page that needs no framework JavaScript in the browser. */
export const FRAMEWORK_FREE = { hydrate: false } as const satisfies PageHandle;

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && 'hydrate' in handle;
}

/**
 * Whether the document for these matched routes loads the framework: the page (the deepest
 * match) decides, since a layout (the blog's) holds pages of both kinds.
 */
export function documentHydrates(matches: readonly { handle: unknown }[]): boolean {
  const page = matches.at(-1);
  return !(page && isPageHandle(page.handle) && page.handle.hydrate === false);
}
