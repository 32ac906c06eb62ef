import type { Route } from './+types/media-update';
import { CacheStrategy } from '../../cache.ts';
import { CategoryPage, categoryMeta } from '../../components/blog/CategoryPage.tsx';
import { BlogRouteError } from '../../components/blog/ListViews.tsx';
import { requestContext } from '../../context.ts';
import { NAMED_CATEGORY_ROUTES, loadCategoryPage } from './blog-data.server.ts';
import { FRAMEWORK_FREE } from '../../page-handle.ts';

/** `/media-update`, a route the spec names without content: one of the seeded categories (decision 020). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return loadCategoryPage(context.get(requestContext).services, request, NAMED_CATEGORY_ROUTES['/media-update']);
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.blog });

export const meta: Route.MetaFunction = ({ loaderData }) => categoryMeta(loaderData);

export default function NamedCategory({ loaderData }: Route.ComponentProps) {
  return <CategoryPage loaded={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BlogRouteError error={error} />;
}
