import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Route } from './+types/catalogue';
import { type AdminGroupRow, listCatalogue, moveService, saveGroup, uploadImage } from '../../admin/catalogue/api.ts';
import { adminFieldClass, adminSecondaryButtonClass } from '../../admin/list-parts.tsx';
import { formatAdminPrice } from '../../admin/orders.tsx';
import { type AdminLoad, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { ApiError, messageOf } from '../../api/client.ts';

/**
 * The catalogue (issue 14, decision 044), owner-only: the groups in their order with every
 * service (drafts too), each with its status, plans and price range; a group's title and image;
 * moving services within their group; "New service" per group. Loaded in the browser with the
 * admin's token, like every admin page.
 */

const page = adminPage({
  title: 'Catalogue',
  titleId: 'catalogue-title',
  description:
    'Groups, services, plans and prices as the store shows them. Drafts are hidden from the store until you publish them; a change shows on the store at once.',
  loading: { label: 'Loading the catalogue...', testId: 'catalogue-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

type CatalogueLoad = AdminLoad<{ groups: AdminGroupRow[] }>;

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<CatalogueLoad> {
  return loadAdminData('GET /api/admin/catalogue', async () => ({ groups: await listCatalogue(request.signal) }));
}

function priceRange(service: AdminGroupRow['services'][number]): string {
  const plans = service.plans.filter((plan) => plan.tiers > 0);
  if (plans.length === 0) return '—';
  const min = Math.min(...plans.map((plan) => plan.minPrice));
  const max = Math.max(...plans.map((plan) => plan.maxPrice));
  const currency = plans[0]?.currency === '$' ? 'USD' : (plans[0]?.currency ?? 'USD');
  return min === max
    ? formatAdminPrice(min, currency)
    : `${formatAdminPrice(min, currency)} – ${formatAdminPrice(max, currency)}`;
}

function useReload() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void navigate(`${location.pathname}${location.search}`, { replace: true, preventScrollReset: true });
}

function GroupEditor({ group }: { group: AdminGroupRow }) {
  const toasts = useToasts();
  const reload = useReload();
  const [title, setTitle] = useState(group.title);
  const [image, setImage] = useState(group.image);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `group-${group.slug}`;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const reply = await saveGroup(group.slug, { title, image });
      toasts.show(reply.message, 'success');
      reload();
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(failure instanceof ApiError ? failure.message : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      setImage(await uploadImage(file));
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void save(event)}
      className="mt-3 flex flex-wrap items-end gap-3"
      aria-label={`Group ${group.title}`}
    >
      <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
        Group title
        <input
          id={`${id}-title`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          className={`${adminFieldClass} mt-1 w-56 max-w-full`}
        />
      </label>
      <div className="flex min-w-0 flex-col text-sm">
        <span className="font-semibold text-gray-900">Image</span>
        <span className="mt-1 flex items-center gap-2">
          {image ? <img src={image} alt="" width={32} height={32} className="h-8 w-8 rounded" /> : null}
          <label className={adminSecondaryButtonClass}>
            Upload group image
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/svg+xml"
              className="sr-only"
              onChange={(e) => void upload(e.target.files?.[0])}
            />
          </label>
        </span>
      </div>
      <button type="submit" disabled={busy} className={adminSecondaryButtonClass}>
        Save group
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function MoveButtons({ slug, name, first, last }: { slug: string; name: string; first: boolean; last: boolean }) {
  const toasts = useToasts();
  const reload = useReload();
  const [busy, setBusy] = useState(false);
  async function move(direction: 'up' | 'down') {
    setBusy(true);
    try {
      await moveService(slug, direction);
      reload();
    } catch (failure) {
      if (!isUnauthorized(failure)) toasts.show(messageOf(failure), 'error');
    } finally {
      setBusy(false);
    }
  }
  const buttonClass =
    'rounded-lg border border-gray-300 px-2 py-1 text-sm font-semibold text-gray-900 hover:border-brand-600 disabled:cursor-not-allowed disabled:text-gray-500';
  return (
    <span className="inline-flex gap-1">
      <button type="button" className={buttonClass} disabled={busy || first} onClick={() => void move('up')}>
        Up<span className="sr-only">: move {name} up</span>
      </button>
      <button type="button" className={buttonClass} disabled={busy || last} onClick={() => void move('down')}>
        Down<span className="sr-only">: move {name} down</span>
      </button>
    </span>
  );
}

export default function CataloguePage({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby={page.titleId}>
      <page.Title />
      {!loaderData.ok ? (
        loaderData.unauthorized ? null : (
          <p role="alert" className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            {loaderData.message}
          </p>
        )
      ) : (
        <div className="mt-6 flex flex-col gap-6" data-testid="catalogue-groups">
          {loaderData.groups.map((group) => (
            <section
              key={group.slug}
              aria-labelledby={`group-${group.slug}-heading`}
              className="rounded-2xl border border-gray-200 bg-white p-4"
              data-testid={`catalogue-group-${group.slug}`}
            >
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h2 id={`group-${group.slug}-heading`} className="text-xl font-bold text-gray-900">
                  {group.title}
                </h2>
                <Link
                  to={`/admin/catalogue/groups/${group.slug}/new`}
                  className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                >
                  New service<span className="sr-only"> in {group.title}</span>
                </Link>
              </div>
              <GroupEditor group={group} />
              <ul className="mt-4 divide-y divide-gray-100">
                {group.services.map((service, index) => (
                  <li
                    key={service.slug}
                    className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3"
                    data-testid={`catalogue-service-${service.slug}`}
                  >
                    <Link
                      to={`/admin/catalogue/services/${service.slug}`}
                      className="min-w-0 font-semibold break-words text-brand-700 underline hover:text-brand-800"
                    >
                      {service.name}
                    </Link>
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-bold ${service.status === 'published' ? 'bg-green-100 text-green-900' : 'bg-amber-100 text-amber-900'}`}
                    >
                      {service.status === 'published' ? 'Published' : 'Draft'}
                    </span>
                    <span className="text-sm text-gray-700">
                      {service.plans.map((plan) => plan.type).join(', ') || 'No plans'}
                    </span>
                    <span className="text-sm text-gray-700 tabular-nums">{priceRange(service)}</span>
                    <span className="ml-auto">
                      <MoveButtons
                        slug={service.slug}
                        name={service.name}
                        first={index === 0}
                        last={index === group.services.length - 1}
                      />
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
