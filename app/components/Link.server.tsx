import {
  type LinkProps,
  type NavLinkProps,
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation,
} from 'react-router';

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
export { ServerLink as Link, ServerNavLink as NavLink };

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

/**
 * The store's `NavLink` on the server: the link above, marked as React Router's NavLink marks it
 * when its target is the page shown (`aria-current="page"`, the class and style its functions
 * give for an active link). On the server nothing is pending and no transition runs. A target
 * that is not an absolute path goes through the router's NavLink.
 */
function ServerNavLink(props: NavLinkProps) {
  const {
    'aria-current': ariaCurrentWhenActive = 'page',
    caseSensitive = false,
    className,
    end = false,
    style,
    children,
    ...link
  } = props;
  const { pathname } = useLocation();
  if (!isAbsolutePath(link.to) || link.viewTransition) return <RouterNavLink {...props} />;
  const isActive = isActivePath(pathname, link.to, { caseSensitive, end });
  const state = { isActive, isPending: false, isTransitioning: false };
  return (
    <ServerLink
      {...link}
      aria-current={isActive ? ariaCurrentWhenActive : undefined}
      className={
        typeof className === 'function'
          ? className(state)
          : [className, isActive ? 'active' : null].filter(Boolean).join(' ')
      }
      style={typeof style === 'function' ? style(state) : style}
    >
      {typeof children === 'function' ? children(state) : children}
    </ServerLink>
  );
}

/** React Router's rule: the same path, or (without `end`) a path below it. */
function isActivePath(current: string, to: string, { caseSensitive, end }: { caseSensitive: boolean; end: boolean }) {
  // The router compares the target as its URL encodes it (`/blog?s=x` is `/blog`).
  let target = new URL(to, 'http://localhost').pathname;
  let location = current;
  if (!caseSensitive) {
    target = target.toLowerCase();
    location = location.toLowerCase();
  }
  const endSlash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return location === target || (!end && location.startsWith(target) && location.charAt(endSlash) === '/');
}
