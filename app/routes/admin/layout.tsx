import { useCallback, useEffect, useEffectEvent, useId, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/layout';
import { type AdminRole, ROLE_MESSAGES, roleMayOpenPage } from '../../../core/auth/roles.ts';
import { CacheStrategy } from '../../cache.ts';
import { ToastProvider } from '../../admin/toasts.tsx';
import { fetchUnreadCount } from '../../admin/messages/api.ts';
import { subscribeInboxChanged } from '../../admin/messages/unread.ts';
import { fetchPendingReviewCount, subscribeReviewsChanged } from '../../admin/reviews/api.ts';
import { adminApi, clearToken, getToken, isUnauthorized, subscribeToken, takeClearReason } from '../../admin/token.ts';
import { isAbort } from '../../api/client.ts';
import { StrokeIcon } from '../../components/StrokeIcon.tsx';
import { useHydrated } from '../../hydrated.ts';
import { privatePageMeta } from '../../seo/meta.ts';

/**
 * The admin shell (spec section 2: "/admin (guarded)"). Logged-in state is the token in local
 * storage (section 6), which only the browser has: the server renders a neutral "Loading…" and
 * never any admin data. In the browser, no token → /login; with one, the sidebar, the admin's
 * e-mail (from /api/auth/me, which also proves the token is still good) and the child page.
 * The storefront's top bar, header and footer never show here (app/layout-rules.ts): the shell
 * is the whole page, a left navigation with counts that folds behind a menu button below 1024 px
 * (decision 034).
 * Whenever the token goes away (log-out, a 401 from any call, a log-out in another tab) the
 * shell sends the visitor to /login.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Admin', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

interface NavItem {
  to: string;
  label: string;
  /** Paths (prefixes) that also mark the item current, e.g. an order's detail page. */
  matches: string[];
  /** An SVG path (24×24, stroked). */
  icon: string;
  /** Shows the number of e-mails that failed for good next to the label. */
  failedMailCount?: boolean;
  /** Shows the number of unread contact messages next to the label (decision 026). */
  unreadMessagesCount?: boolean;
  /** Shows the number of reviews waiting for approval (decision 039). */
  pendingReviewsCount?: boolean;
}

/** The admin sections (blog management: spec "Admin blog list"). */
const ADMIN_NAV: NavItem[] = [
  {
    to: '/admin/dashboard',
    label: 'Dashboard',
    matches: ['/admin/dashboard'],
    icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  },
  {
    to: '/admin/all-orders',
    label: 'All orders',
    matches: ['/admin/all-orders', '/admin/orders'],
    icon: 'M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2M9 5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2m-6 9 2 2 4-4',
  },
  {
    to: '/admin/messages',
    label: 'Messages',
    matches: ['/admin/messages'],
    icon: 'M4 5h16v11H8l-4 4V5ZM8 9h8M8 12h5',
    unreadMessagesCount: true,
  },
  {
    to: '/admin/reviews',
    label: 'Reviews',
    matches: ['/admin/reviews'],
    icon: 'm12 4 2.5 5 5.5.8-4 3.9.9 5.5-4.9-2.6-4.9 2.6.9-5.5-4-3.9 5.5-.8L12 4Z',
    pendingReviewsCount: true,
  },
  {
    to: '/admin/catalogue',
    label: 'Catalogue',
    matches: ['/admin/catalogue'],
    icon: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  },
  {
    to: '/admin/suppliers',
    label: 'Suppliers',
    matches: ['/admin/suppliers'],
    icon: 'M3 7h11v9H3zM14 10h4l3 3v3h-7M7 19a2 2 0 1 0 0-.01M17 19a2 2 0 1 0 0-.01',
  },
  {
    to: '/admin/payment-methods',
    label: 'Payment methods',
    matches: ['/admin/payment-methods'],
    icon: 'M3 6h18v12H3zM3 10h18M7 15h4',
  },
  {
    to: '/admin/blog',
    label: 'Blog',
    matches: ['/admin/blog'],
    icon: 'M5 4h10l4 4v12H5zM15 4v4h4M8 12h8M8 16h5',
  },
  {
    to: '/admin/mail',
    label: 'Failed mail',
    matches: ['/admin/mail'],
    icon: 'M4 6h16v12H4zM4 7l8 6 8-6',
    failedMailCount: true,
  },
  {
    to: '/admin/admins',
    label: 'Admins',
    matches: ['/admin/admins'],
    icon: 'M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM21 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8',
  },
  {
    to: '/admin/audit',
    label: 'Audit log',
    matches: ['/admin/audit'],
    icon: 'M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2M9 5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2M9 12h6M9 16h4',
  },
  {
    to: '/admin/security',
    label: 'Security',
    matches: ['/admin/security'],
    icon: 'M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6l-8-3Z',
  },
];

/**
 * What a support admin sees at an owner's address (decision 041): a page that says so, with a
 * way back, instead of the page's own (its API calls answer 403).
 */
function OwnerOnlyPage() {
  return (
    <section aria-labelledby="owner-only-title" data-testid="owner-only" className="max-w-xl">
      <h1 id="owner-only-title" className="text-2xl font-extrabold text-gray-900 sm:text-3xl">
        {ROLE_MESSAGES.ownerOnlyPage}
      </h1>
      <p className="mt-3 text-gray-700">
        Your account is a support account: it opens orders, messages, reviews and your own security settings. Ask the
        store owner if you need more.
      </p>
      <Link
        to="/admin/all-orders"
        className="mt-6 inline-flex rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        Go to the orders
      </Link>
    </section>
  );
}

function isCurrent(item: NavItem, pathname: string): boolean {
  return item.matches.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The server (and the hydrating first render) has no token; afterwards it is local storage's. */
function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}

function LoadingShell() {
  return (
    <div
      role="status"
      data-testid="admin-loading"
      className="flex min-h-[50vh] items-center justify-center gap-3 px-4 py-24 text-gray-700"
    >
      <span
        aria-hidden="true"
        className="h-6 w-6 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700 motion-reduce:animate-none"
      />
      Loading…
    </div>
  );
}

export default function AdminLayout() {
  const token = useToken();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  /** Who is logged in, and with which token (a log-in as someone else in another tab swaps it). */
  const [me, setMe] = useState<{ token: string; email: string | null; role: AdminRole | null } | null>(null);
  const email = me && me.token === token ? me.email : null;
  /** Null until /api/auth/me answers: the navigation shows only what every role may open meanwhile. */
  const role = me && me.token === token ? me.role : null;
  const [loggingOut, setLoggingOut] = useState(false);
  /** Phones and tablets: the navigation folds behind the menu button, and folds again on every move. */
  const navId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }
  /** E-mails given up for good (decision 015): the alert in the navigation. */
  const [failedMail, setFailedMail] = useState(0);
  /** Contact messages no admin has opened (decision 026): the badge next to Messages. */
  const [unreadMessages, setUnreadMessages] = useState(0);
  /** Bumped when this tab opened, handled or answered a message: the count is asked again. */
  const [inboxVersion, setInboxVersion] = useState(0);
  useEffect(() => subscribeInboxChanged(() => setInboxVersion((version) => version + 1)), []);
  /** Reviews waiting for approval (decision 039), asked again on navigation and after a decision. */
  const [pendingReviews, setPendingReviews] = useState(0);
  const [reviewsVersion, setReviewsVersion] = useState(0);
  useEffect(() => subscribeReviewsChanged(() => setReviewsVersion((version) => version + 1)), []);
  useEffect(() => {
    if (!token) return undefined;
    const controller = new AbortController();
    fetchPendingReviewCount(controller.signal).then(
      (reply) => {
        if (!controller.signal.aborted) setPendingReviews(reply.count);
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error) && !isUnauthorized(error))
          console.error('GET /api/admin/reviews/pending-count failed', error);
      },
    );
    return () => controller.abort();
  }, [token, location.key, reviewsVersion]);

  // Only a change of token decides when to leave; the location is only read for the way back.
  const leaveForLogin = useEffectEvent(() => {
    const notice = takeClearReason();
    void navigate('/login', {
      replace: true,
      state: { from: `${location.pathname}${location.search}`, ...(notice ? { notice } : {}) },
    });
  });

  // The guard: no token (never had one, logged out, expired) → the login page, which comes back
  // here afterwards.
  useEffect(() => {
    if (hydrated && !token) leaveForLogin();
  }, [hydrated, token]);

  // Who is logged in; a 401 here clears the token and the guard above takes over.
  useEffect(() => {
    if (!token) return undefined;
    const controller = new AbortController();
    adminApi.get<{ email: string; role: AdminRole } | undefined>('/api/auth/me', { signal: controller.signal }).then(
      (admin) => {
        if (!controller.signal.aborted) setMe({ token, email: admin?.email ?? null, role: admin?.role ?? null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error) && !isUnauthorized(error))
          console.error('GET /api/auth/me failed', error);
      },
    );
    return () => controller.abort();
  }, [token]);

  // Asked again on every navigation (the failed-mail page reloads itself after a resend). The mail
  // log is the owner's (decision 041): support admins never ask.
  useEffect(() => {
    if (!token || role !== 'owner') return undefined;
    const controller = new AbortController();
    adminApi.get<{ count: number }>('/api/admin/mail/failed/count', { signal: controller.signal }).then(
      (reply) => {
        if (!controller.signal.aborted) setFailedMail(reply.count);
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error) && !isUnauthorized(error))
          console.error('GET /api/admin/mail/failed/count failed', error);
      },
    );
    return () => controller.abort();
  }, [token, role, location.key]);

  // Asked again on every navigation and whenever a screen changed the inbox.
  useEffect(() => {
    if (!token) return undefined;
    const controller = new AbortController();
    fetchUnreadCount(controller.signal).then(
      (reply) => {
        if (!controller.signal.aborted) setUnreadMessages(reply.count);
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error) && !isUnauthorized(error))
          console.error('GET /api/admin/messages/unread-count failed', error);
      },
    );
    return () => controller.abort();
  }, [token, location.key, inboxVersion]);

  const logOut = useCallback(async () => {
    setLoggingOut(true);
    try {
      // Revoke the token on the server; the admin is logged out here whatever it answers.
      await adminApi.send('GET', '/api/auth/logout', { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      if (!isUnauthorized(error)) console.error('GET /api/auth/logout failed', error);
    } finally {
      setLoggingOut(false);
      // The guard above follows the token to /login.
      clearToken(null);
    }
  }, []);

  if (!hydrated || !token) return <LoadingShell />;

  const countFor = (item: NavItem): { count: number; label: string; testId: string; tone: string } | null => {
    if (item.failedMailCount && failedMail > 0)
      return { count: failedMail, label: 'failed', testId: 'failed-mail-count', tone: 'bg-red-700' };
    if (item.unreadMessagesCount && unreadMessages > 0)
      return { count: unreadMessages, label: 'unread', testId: 'unread-messages-count', tone: 'bg-brand-700' };
    if (item.pendingReviewsCount && pendingReviews > 0)
      return { count: pendingReviews, label: 'pending', testId: 'pending-reviews-count', tone: 'bg-brand-700' };
    return null;
  };
  // What the menu button says on phones: whether anything waits behind it.
  const waiting = failedMail + unreadMessages + pendingReviews;

  return (
    <ToastProvider>
      <div className="flex min-h-screen w-full flex-col bg-gray-50 lg:flex-row" data-testid="admin-shell">
        <aside className="relative border-b border-gray-200 bg-white lg:sticky lg:top-0 lg:flex lg:h-screen lg:w-60 lg:shrink-0 lg:flex-col lg:border-r lg:border-b-0">
          <div className="flex items-center justify-between gap-3 px-4 py-3 lg:px-5 lg:py-6">
            <Link to="/admin/all-orders" className="inline-flex min-w-0 items-center gap-2">
              <img src="/images/logo.svg" alt="Boostly" width={128} height={32} className="h-8 w-auto" />
              <span className="rounded-md bg-brand-100 px-2 py-0.5 text-xs font-bold tracking-wide text-brand-800 uppercase">
                Admin
              </span>
            </Link>
            <button
              type="button"
              data-testid="admin-menu-button"
              aria-expanded={menuOpen}
              aria-controls={navId}
              onClick={() => setMenuOpen((open) => !open)}
              className="relative inline-flex items-center gap-2 rounded-lg border-2 border-gray-300 bg-white px-3 py-1.5 text-sm font-semibold text-gray-900 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 lg:hidden"
            >
              <StrokeIcon className="h-5 w-5">
                <path d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} />
              </StrokeIcon>
              Menu
              {waiting > 0 && !menuOpen ? (
                <span aria-hidden="true" className="absolute -top-1 -right-1 h-3 w-3 rounded-full bg-red-700" />
              ) : null}
            </button>
          </div>
          <nav id={navId} aria-label="Admin" className={`px-2 pb-3 lg:block lg:px-3 ${menuOpen ? 'block' : 'hidden'}`}>
            <ul className="flex flex-col gap-1" data-testid="admin-nav">
              {ADMIN_NAV.filter((item) => roleMayOpenPage(role ?? 'support', item.to)).map((item) => {
                const current = isCurrent(item, location.pathname);
                const badge = countFor(item);
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      aria-current={current ? 'page' : undefined}
                      className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                        current ? 'bg-brand-50 text-brand-800' : 'text-gray-700 hover:bg-gray-100 hover:text-gray-900'
                      }`}
                    >
                      <StrokeIcon className="h-5 w-5 shrink-0">
                        <path d={item.icon} />
                      </StrokeIcon>
                      <span className="min-w-0 flex-1">{item.label}</span>
                      {badge ? (
                        <span
                          data-testid={badge.testId}
                          className={`relative rounded-full px-2 py-0.5 text-xs font-bold text-white tabular-nums ${badge.tone}`}
                        >
                          {badge.count}
                          <span className="sr-only"> {badge.label}</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        </aside>

        <div className="flex min-w-0 flex-1 flex-col">
          <div className="flex flex-wrap items-center justify-end gap-3 border-b border-gray-200 bg-white px-4 py-3 sm:px-6">
            <p className="min-w-0 truncate text-sm text-gray-700">
              <span className="sr-only">Logged in as </span>
              <span data-testid="admin-email" className="font-semibold text-gray-900">
                {email ?? '…'}
              </span>
            </p>
            <button
              type="button"
              onClick={() => void logOut()}
              disabled={loggingOut}
              className="inline-flex items-center gap-2 rounded-lg border-2 border-gray-300 bg-white px-3 py-1.5 text-sm font-semibold text-gray-900 hover:border-brand-600 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait"
            >
              <StrokeIcon className="h-4 w-4">
                <path d="M15 17l5-5-5-5M20 12H9M12 19H6a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h6" />
              </StrokeIcon>
              Log out
            </button>
          </div>
          <div className="relative mx-auto w-full max-w-[90rem] px-4 py-6 sm:px-6 lg:px-8">
            {role ? (
              roleMayOpenPage(role, location.pathname) ? (
                <Outlet />
              ) : (
                <OwnerOnlyPage />
              )
            ) : roleMayOpenPage('support', location.pathname) ? (
              <Outlet />
            ) : (
              // An owner's page waits for the role, so a support admin never sees it start.
              <LoadingShell />
            )}
          </div>
        </div>
      </div>
    </ToastProvider>
  );
}
