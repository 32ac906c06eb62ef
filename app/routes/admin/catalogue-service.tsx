import { useNavigate } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/catalogue-service';
import { type ServiceDocument, fetchService } from '../../admin/catalogue/api.ts';
import { ServiceForm } from '../../admin/catalogue/ServiceForm.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';

/**
 * One service in the catalogue editor (decision 044), owner-only: the edit form at
 * /admin/catalogue/services/:slug, and the same form empty at /admin/catalogue/groups/:group/new.
 * The form saves with the revision it opened; a stale one is refused (409) with a reload link.
 */

const page = adminPage({
  title: 'Edit service',
  titleId: 'catalogue-service-title',
  description: 'Fields, plans and prices of one service. Saving publishes the change on the store at once.',
  loading: { label: 'Loading the service...', testId: 'catalogue-service-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

type ServiceLoad = AdminLoad<{ document: ServiceDocument | null; groupSlug: string }>;

export function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<ServiceLoad> {
  const { slug, group } = params;
  return loadAdminData(`GET /api/admin/catalogue/services/${slug ?? ''}`, async () => {
    if (!slug) return { document: null, groupSlug: group ?? '' };
    const document = await fetchService(slug, request.signal);
    return { document, groupSlug: document.groupSlug };
  });
}

export default function CatalogueServicePage({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const toasts = useToasts();
  const creating = loaderData.ok && loaderData.document === null;
  return (
    <section aria-labelledby={page.titleId}>
      <Link
        to="/admin/catalogue"
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline hover:text-brand-800"
      >
        <span aria-hidden="true">←</span> Catalogue
      </Link>
      <h1 id={page.titleId} className="mt-2 text-2xl font-extrabold break-words text-gray-900 sm:text-3xl">
        {loaderData.ok
          ? loaderData.document
            ? loaderData.document.name
            : `New service in ${loaderData.groupSlug}`
          : 'Service'}
      </h1>
      {!loaderData.ok ? (
        <AdminLoadFailed load={loaderData} />
      ) : (
        <ServiceForm
          key={loaderData.document ? `${loaderData.document.slug}:${loaderData.document.revision}` : 'new'}
          document={loaderData.document}
          groupSlug={loaderData.groupSlug}
          onSaved={(saved, message) => {
            if (creating || saved.slug !== loaderData.document?.slug) {
              toasts.show(message, 'success');
              void navigate(`/admin/catalogue/services/${saved.slug}`, { replace: true });
            }
          }}
        />
      )}
    </section>
  );
}
