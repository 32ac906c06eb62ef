import { type LinkProps, Link as RouterLink } from 'react-router';

/**
 * The store's `Link` on the server (the server build takes this module wherever a page imports
 * app/components/Link.tsx: `serverLinks` in vite.config.ts). A link to an absolute path
 * (`/service/...`, `/blog?page=2`) renders the anchor React Router's Link would render, without
 * running it: the router's Link resolves the path, builds its click and prefetch handlers and reads
 * five contexts per link, none of which reaches the HTML, and on a page of some fifty links that
 * was the largest single cost of rendering it (decision 078). The anchor is the same, attribute for
 * attribute (`data-discover` tells the browser's router to fetch the route's code when it
 * hydrates), so hydration takes it over as its own. Any other target (relative, an object, another
 * origin), a mask and a prefetch that renders markup go through the router's Link.
 */
export { ServerLink as Link };

function ServerLink(props: LinkProps) {
  const {
    to,
    target,
    mask,
    discover = 'render',
    prefetch = 'none',
    // What only a click or the browser's router reads: nothing of it is in the markup.
    reloadDocument: _reloadDocument,
    replace: _replace,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- React Router types a link's state as any; it is dropped unread
    state: _state,
    preventScrollReset: _preventScrollReset,
    relative: _relative,
    viewTransition: _viewTransition,
    onClick: _onClick,
    ...anchor
  } = props;
  if (!isAbsolutePath(to) || mask !== undefined || prefetch === 'render') return <RouterLink {...props} />;
  // eslint-disable-next-line jsx-a11y/anchor-has-content -- the caller's children are in `anchor`
  return <a {...anchor} href={to} target={target} data-discover={discover === 'render' ? 'true' : undefined} />;
}

/** A path on this origin from its root: `/x`, but not `//host/x` (another origin). */
function isAbsolutePath(to: LinkProps['to']): to is string {
  return typeof to === 'string' && to.startsWith('/') && !to.startsWith('//');
}
