import { Form, useNavigation } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/suppliers-services';
import { SERVICE_LIST_LIMIT, type ServiceList } from '../../../core/fulfilment/supplier-contracts.ts';
import { CacheStrategy } from '../../cache.ts';
import { AdminPageHeader, adminFieldClass, adminPrimaryButtonClass } from '../../admin/list-parts.tsx';
import { formatAdminDate } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, loadAdminData } from '../../admin/page.tsx';
import { adminApi } from '../../admin/token.ts';

/**
 * One supplier panel's imported services (decision 045): name, id, category, rate per 1000,
 * min, max, refill and cancel, offered ones first; search by name or id and filter by category
 * (GET form: the filters are in the address, so a filtered list can be shared and reloaded).
 * Services the panel stopped offering stay listed, marked, so a tier mapped to one is explained.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Supplier services | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type ServicesLoad = AdminLoad<{ list: ServiceList }, { q: string; category: string }>;

export function clientLoader({ request, params }: Route.ClientLoaderArgs): Promise<ServicesLoad> {
  const search = new URL(request.url).searchParams;
  const q = search.get('q')?.trim() ?? '';
  const category = search.get('category') ?? '';
  const path = `/api/admin/suppliers/${encodeURIComponent(params.panelId)}/services`;
  return loadAdminData(
    `GET ${path}`,
    async () => ({
      list: await adminApi.get<ServiceList>(path, {
        signal: request.signal,
        query: { q: q || undefined, category: category || undefined },
      }),
    }),
    { q, category },
  );
}

const back = (
  <Link to="/admin/suppliers" className="text-sm font-semibold text-brand-800 underline hover:text-brand-900">
    Back to suppliers
  </Link>
);

function Title({ description }: { description?: string | undefined }) {
  return (
    <AdminPageHeader
      titleId="supplier-services-title"
      title="Supplier services"
      before={back}
      {...(description ? { description } : {})}
    />
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="supplier-services-title">
      <Title />
      <p role="status" className="mt-6 text-gray-700">
        Loading services...
      </p>
    </section>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export default function SupplierServices({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!loaderData.ok) {
    return (
      <section aria-labelledby="supplier-services-title">
        <Title />
        <AdminLoadFailed load={loaderData} />
      </section>
    );
  }
  const { list, q, category } = loaderData;
  const shown = list.services.length;
  return (
    <section
      aria-labelledby="supplier-services-title"
      aria-busy={navigation.state === 'loading'}
      data-testid="supplier-services"
    >
      <Title
        description={
          list.importedAt
            ? `Imported ${formatAdminDate(list.importedAt)}. Rates are per 1000, in the panel's currency.`
            : undefined
        }
      />
      <Form method="get" role="search" className="flex flex-wrap items-end gap-3" data-testid="services-filter">
        <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
          <label htmlFor="services-q" className="text-sm font-semibold text-gray-900">
            Search by name or id
          </label>
          <input
            id="services-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={100}
            autoComplete="off"
            className={`${adminFieldClass} w-full`}
          />
        </div>
        <div className="flex min-w-0 basis-56 flex-col gap-1">
          <label htmlFor="services-category" className="text-sm font-semibold text-gray-900">
            Category
          </label>
          <select
            id="services-category"
            name="category"
            defaultValue={category}
            className={`${adminFieldClass} w-full max-w-full`}
          >
            <option value="">All categories</option>
            {list.categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={adminPrimaryButtonClass}>
          Filter
        </button>
      </Form>
      <p role="status" className="mt-3 text-sm text-gray-700" data-testid="services-count">
        {list.total === 0
          ? 'No services found. Import the panel’s services on the suppliers page, or change the filters.'
          : list.total > shown
            ? `Showing the first ${shown.toLocaleString('en-US')} of ${list.total.toLocaleString('en-US')} services; narrow the search to see the others.`
            : `${list.total.toLocaleString('en-US')} service${list.total === 1 ? '' : 's'}`}
      </p>
      {shown > 0 ? (
        <div className="relative mt-4 md:overflow-x-auto md:rounded-2xl md:border md:border-gray-200 md:bg-white">
          <table
            data-testid="services-table"
            className="block w-full text-left text-sm md:table md:divide-y md:divide-gray-200"
          >
            <caption className="sr-only">
              Services of this panel{list.total > SERVICE_LIST_LIMIT ? ` (first ${SERVICE_LIST_LIMIT})` : ''}
            </caption>
            <thead className="hidden bg-gray-50 text-xs font-bold tracking-wide text-gray-700 uppercase md:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Service
                </th>
                <th scope="col" className="px-4 py-3">
                  Category
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Rate / 1000
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Min
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Max
                </th>
                <th scope="col" className="px-4 py-3">
                  Refill
                </th>
                <th scope="col" className="px-4 py-3">
                  Cancel
                </th>
              </tr>
            </thead>
            <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-gray-100">
              {list.services.map((service) => (
                <tr
                  key={service.service}
                  className="flex flex-col gap-1 rounded-2xl border border-gray-200 bg-white p-4 md:table-row md:rounded-none md:border-0 md:p-0"
                >
                  <td className="min-w-0 break-words text-gray-900 md:px-4 md:py-3">
                    <span className="font-semibold">{service.name}</span>
                    <span className="block text-xs text-gray-700">
                      Id {service.service}
                      {service.type ? `, ${service.type}` : ''}
                    </span>
                    {service.vanished ? (
                      <span className="mt-1 inline-block rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800">
                        No longer offered
                      </span>
                    ) : null}
                  </td>
                  <td className="break-words text-gray-700 md:px-4 md:py-3">{service.category}</td>
                  <td className="text-gray-900 tabular-nums before:content-['Rate_per_1000:_'] md:px-4 md:py-3 md:text-right md:before:content-none">
                    {service.rate}
                  </td>
                  <td className="text-gray-900 tabular-nums before:content-['Min:_'] md:px-4 md:py-3 md:text-right md:before:content-none">
                    {service.min.toLocaleString('en-US')}
                  </td>
                  <td className="text-gray-900 tabular-nums before:content-['Max:_'] md:px-4 md:py-3 md:text-right md:before:content-none">
                    {service.max.toLocaleString('en-US')}
                  </td>
                  <td className="text-gray-900 before:content-['Refill:_'] md:px-4 md:py-3 md:before:content-none">
                    {yesNo(service.refill)}
                  </td>
                  <td className="text-gray-900 before:content-['Cancel:_'] md:px-4 md:py-3 md:before:content-none">
                    {yesNo(service.cancel)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
