import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/catalogue';
import {
  type AdminGroupRow,
  createGroup,
  deleteGroup,
  listCatalogue,
  moveGroup,
  moveService,
  saveGroup,
  uploadImage,
} from '../../admin/catalogue/api.ts';
import { PriceFloorForm } from '../../admin/catalogue/PriceFloorForm.tsx';
import { adminFieldClass, adminSecondaryButtonClass } from '../../admin/list-parts.tsx';
import { formatAdminPrice } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { GroupInputSchema, NewGroupInputSchema } from '../../../core/catalogue/service-document.ts';
import { SERVICE_KIND_LABELS } from '../../../core/subscriptions/terms.ts';
import { ApiError, messageOf } from '../../api/client.ts';
import { schemaCheck } from '../../components/schema-check.ts';
import { useFormCheck } from '../../components/use-form-check.ts';

/**
 * The catalogue (decision 044), owner-only: the groups in their order with every
 * service (drafts too), each with its status, plans and price range; a group's title and image;
 * moving groups, and services within their group; adding a group, and deleting one that has no
 * service; "New service" per group. Loaded in the browser with the admin's token, like every
 * admin page.
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

/** Lowercase words joined by hyphens, from a title ("TikTok Growth" → "tiktok-growth"). */
function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * A group's image: its thumbnail and an upload button. The file goes through the upload pipeline
 * (checked by content); the form it sits in is busy meanwhile and shows a refusal as its error.
 */
function GroupImageField({
  image,
  buttonLabel,
  error,
  onImage,
  onBusy,
  onError,
}: {
  image: string;
  buttonLabel: string;
  error?: string | undefined;
  onImage: (url: string) => void;
  onBusy: (busy: boolean) => void;
  onError: (message: string | null) => void;
}) {
  async function upload(file: File | undefined) {
    if (!file) return;
    onBusy(true);
    onError(null);
    try {
      onImage(await uploadImage(file));
    } catch (failure) {
      if (!isUnauthorized(failure)) onError(messageOf(failure));
    } finally {
      onBusy(false);
    }
  }
  return (
    <div className="flex min-w-0 flex-col text-sm">
      <span className="font-semibold text-gray-900">Image</span>
      <span className="mt-1 flex items-center gap-2">
        {image ? <img src={image} alt="" width={32} height={32} className="h-8 w-8 rounded" /> : null}
        <label className={adminSecondaryButtonClass}>
          {buttonLabel}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/svg+xml"
            className="sr-only"
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </label>
      </span>
      {error ? <span className="mt-1 text-sm font-medium text-red-800">{error}</span> : null}
    </div>
  );
}

const NEW_GROUP_FIELDS = ['title', 'slug', 'image'] as const;
const GROUP_FIELDS = ['title', 'image'] as const;

function NewGroupForm() {
  const toasts = useToasts();
  const reload = useReload();
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [image, setImage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The API's schema checks the group first; the server's refusals land on the same fields. */
  const check = useFormCheck({
    fields: NEW_GROUP_FIELDS,
    check: () => schemaCheck(NewGroupInputSchema, { slug, title, image }),
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const fieldError = check.errorOf;

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setError(null);
    if (check.submit(form) === null) return;
    setBusy(true);
    try {
      const reply = await createGroup({ slug, title, image });
      toasts.show(reply.message, 'success');
      setTitle('');
      setSlug('');
      setSlugEdited(false);
      setImage('');
      reload();
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      if (failure instanceof ApiError) check.refuseFields(failure.fieldErrors, form);
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const titleError = fieldError('title');
  const slugError = fieldError('slug');
  const imageError = fieldError('image');
  return (
    <section
      aria-labelledby="new-group-heading"
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-4"
      data-testid="new-group"
    >
      <h2 id="new-group-heading" className="text-lg font-bold text-gray-900">
        New group
      </h2>
      <p id="new-group-hint" className="mt-1 text-sm text-gray-700">
        A new group stays hidden from the store until one of its services is published. A group can be deleted only
        while it has no service (drafts count).
      </p>
      <form
        onSubmit={(event) => void add(event)}
        onInput={check.onInput}
        noValidate
        className="mt-3 flex flex-wrap items-start gap-3"
      >
        <div className="flex min-w-0 flex-col text-sm">
          <label htmlFor="new-group-title" className="font-semibold text-gray-900">
            Title
          </label>
          <input
            id="new-group-title"
            name="title"
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              if (!slugEdited) setSlug(slugOf(e.target.value));
            }}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? 'new-group-title-error' : undefined}
            className={`${adminFieldClass} mt-1 w-56 max-w-full font-normal`}
          />
          {titleError ? (
            <span id="new-group-title-error" className="mt-1 text-sm font-medium text-red-800">
              {titleError}
            </span>
          ) : null}
        </div>
        <div className="flex min-w-0 flex-col text-sm">
          <label htmlFor="new-group-slug" className="font-semibold text-gray-900">
            Slug
          </label>
          <input
            id="new-group-slug"
            name="slug"
            value={slug}
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugEdited(true);
            }}
            aria-invalid={slugError ? true : undefined}
            aria-describedby={slugError ? 'new-group-slug-error' : 'new-group-slug-hint'}
            className={`${adminFieldClass} mt-1 w-56 max-w-full font-normal`}
          />
          {slugError ? (
            <span id="new-group-slug-error" className="mt-1 text-sm font-medium text-red-800">
              {slugError}
            </span>
          ) : (
            <span id="new-group-slug-hint" className="mt-1 text-xs font-normal text-gray-700">
              The group’s address: /service/slug. Not shared with any service.
            </span>
          )}
        </div>
        <GroupImageField
          image={image}
          buttonLabel="Upload new group image"
          error={imageError}
          onImage={setImage}
          onBusy={setBusy}
          onError={setError}
        />
        <button type="submit" disabled={busy} className={`${adminSecondaryButtonClass} self-end`}>
          Add group
        </button>
        {error ? (
          <p role="alert" className="w-full text-sm font-medium text-red-800">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function DeleteGroupButton({ group }: { group: AdminGroupRow }) {
  const toasts = useToasts();
  const reload = useReload();
  const [busy, setBusy] = useState(false);
  async function remove() {
    if (!window.confirm(`Delete the group "${group.title}"?`)) return;
    setBusy(true);
    try {
      const reply = await deleteGroup(group.slug);
      toasts.show(reply.message, 'success');
      reload();
    } catch (failure) {
      // The server says why (e.g. a service was added meanwhile).
      if (!isUnauthorized(failure)) toasts.show(messageOf(failure), 'error');
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" disabled={busy} onClick={() => void remove()} className={adminSecondaryButtonClass}>
      Delete group<span className="sr-only"> {group.title}</span>
    </button>
  );
}

function GroupEditor({ group }: { group: AdminGroupRow }) {
  const toasts = useToasts();
  const reload = useReload();
  const [title, setTitle] = useState(group.title);
  const [image, setImage] = useState(group.image);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `group-${group.slug}`;
  const check = useFormCheck({
    fields: GROUP_FIELDS,
    check: () => schemaCheck(GroupInputSchema, { title, image }),
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const titleError = check.errorOf('title');

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setError(null);
    if (check.submit(form) === null) return;
    setBusy(true);
    try {
      const reply = await saveGroup(group.slug, { title, image });
      toasts.show(reply.message, 'success');
      reload();
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      if (failure instanceof ApiError) check.refuseFields(failure.fieldErrors, form);
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void save(event)}
      onInput={check.onInput}
      noValidate
      className="mt-3 flex flex-wrap items-end gap-3"
      aria-label={`Group ${group.title}`}
    >
      <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
        Group title
        <input
          id={`${id}-title`}
          name="title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          aria-invalid={titleError ? true : undefined}
          aria-describedby={titleError ? `${id}-title-error` : undefined}
          className={`${adminFieldClass} mt-1 w-56 max-w-full`}
        />
        {titleError ? (
          <span id={`${id}-title-error`} className="mt-1 text-sm font-medium text-red-800">
            {titleError}
          </span>
        ) : null}
      </label>
      <GroupImageField
        image={image}
        buttonLabel="Upload group image"
        error={check.errorOf('image')}
        onImage={setImage}
        onBusy={setBusy}
        onError={setError}
      />
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

function MoveButtons({
  name,
  first,
  last,
  onMove,
}: {
  name: string;
  first: boolean;
  last: boolean;
  onMove: (direction: 'up' | 'down') => Promise<unknown>;
}) {
  const toasts = useToasts();
  const reload = useReload();
  const [busy, setBusy] = useState(false);
  async function move(direction: 'up' | 'down') {
    setBusy(true);
    try {
      await onMove(direction);
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
        <AdminLoadFailed load={loaderData} />
      ) : (
        <>
          <PriceFloorForm />
          <div className="mt-6 flex flex-col gap-6" data-testid="catalogue-groups">
            {loaderData.groups.map((group, groupIndex) => (
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
                  {group.services.some((service) => service.status === 'published') ? null : (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">
                      Hidden from the store until a service is published
                    </span>
                  )}
                  <span className="ml-auto inline-flex flex-wrap items-center gap-2">
                    <MoveButtons
                      name={`the group ${group.title}`}
                      first={groupIndex === 0}
                      last={groupIndex === loaderData.groups.length - 1}
                      onMove={(direction) => moveGroup(group.slug, direction)}
                    />
                    {group.services.length === 0 ? <DeleteGroupButton group={group} /> : null}
                  </span>
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
                      {service.kind === 'package' ? null : (
                        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-bold text-brand-900">
                          {SERVICE_KIND_LABELS[service.kind]}
                        </span>
                      )}
                      <span className="text-sm text-gray-700">
                        {service.plans.map((plan) => plan.type).join(', ') || 'No plans'}
                      </span>
                      <span className="text-sm text-gray-700 tabular-nums">{priceRange(service)}</span>
                      <span className="ml-auto">
                        <MoveButtons
                          name={service.name}
                          first={index === 0}
                          last={index === group.services.length - 1}
                          onMove={(direction) => moveService(service.slug, direction)}
                        />
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
          <NewGroupForm />
        </>
      )}
    </section>
  );
}
