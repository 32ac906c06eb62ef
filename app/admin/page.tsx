import type { ReactNode } from 'react';
import type { MetaDescriptor } from 'react-router';
import { CacheStrategy } from '../cache.ts';
import { isAbort, messageOf } from '../api/client.ts';
import { AdminPageHeader, ListLoading } from './list-parts.tsx';
import { isUnauthorized } from './token.ts';

/**
 * The scaffolding every admin page repeats, once: the tab title and `noindex, nofollow`, no
 * caching, the page's heading (h1 + description, with a slot for a button), the HydrateFallback
 * that shows that heading and a loading line until the clientLoader has answered, and the
 * clientLoader's error handling (an abort is re-thrown, a refused token is flagged for the layout,
 * which is already on its way to /login, anything else becomes a message the page shows).
 *
 * A route module:
 *
 *   const page = adminPage({ title: 'Reviews', titleId: 'admin-reviews-title',
 *     description: '…', loading: { label: 'Loading reviews...', testId: 'reviews-loading' } });
 *   export const meta: Route.MetaFunction = page.meta;
 *   export const headers: Route.HeadersFunction = page.headers;
 *   export const HydrateFallback = page.HydrateFallback;
 *   export function clientLoader({ request }: Route.ClientLoaderArgs) {
 *     return loadAdminData('GET /api/admin/reviews', () => listReviews(…, request.signal), { status });
 *   }
 *   // In the component: <section aria-labelledby={page.titleId}><page.Title action={…} />…
 */

export interface AdminPageOptions {
  /** The h1, and the tab's "<title> | Boostly admin". */
  title: string;
  /** The h1's id, for the section's `aria-labelledby`. */
  titleId: string;
  description?: ReactNode;
  /** The HydrateFallback's status line, and its test id. */
  loading: { label: string; testId: string };
}

export interface AdminPage {
  titleId: string;
  meta: () => MetaDescriptor[];
  headers: () => Record<string, string>;
  /** The page's header: h1, description and an optional action (a button, a link). */
  Title: (props: { action?: ReactNode }) => ReactNode;
  /** The page before its clientLoader has answered: the same header and a loading line. */
  HydrateFallback: () => ReactNode;
}

export function adminPage(options: AdminPageOptions): AdminPage {
  const { title, titleId, description, loading } = options;
  function Title({ action }: { action?: ReactNode }) {
    return <AdminPageHeader titleId={titleId} title={title} description={description} action={action} />;
  }
  function HydrateFallback() {
    return (
      <section aria-labelledby={titleId}>
        <Title />
        <ListLoading testId={loading.testId} label={loading.label} />
      </section>
    );
  }
  return {
    titleId,
    meta: () => [{ title: `${title} | Boostly admin` }, { name: 'robots', content: 'noindex, nofollow' }],
    headers: () => ({ 'Cache-Control': CacheStrategy.none }),
    Title,
    HydrateFallback,
  };
}

/** What a clientLoader hands its page: the data, or why it could not be read. */
export type AdminLoad<T, Context = object> =
  | (Context & T & { ok: true })
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | (Context & { ok: false; message: string; unauthorized: boolean });

/**
 * Runs a clientLoader's reads. `context` (the filters read from the address, say) is kept on both
 * outcomes, so a failed load still shows the tab it was asked for. `what` names the call in the
 * console when it fails for a reason other than a refused token.
 */
export async function loadAdminData<T extends object, Context extends object = object>(
  what: string,
  load: () => Promise<T>,
  context?: Context,
): Promise<AdminLoad<T, Context>> {
  const kept = (context ?? {}) as Context;
  try {
    return { ...kept, ...(await load()), ok: true };
  } catch (error) {
    if (isAbort(error)) throw error;
    const unauthorized = isUnauthorized(error);
    if (!unauthorized) console.error(`${what} failed`, error);
    return { ...kept, ok: false, message: messageOf(error), unauthorized };
  }
}

/**
 * What a page shows when its clientLoader failed: the reason, or nothing when the token was
 * refused (the layout is already on its way to /login).
 */
export function AdminLoadFailed({ load }: { load: { message: string; unauthorized: boolean } }) {
  if (load.unauthorized) return null;
  return (
    <p role="alert" className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      {load.message}
    </p>
  );
}
