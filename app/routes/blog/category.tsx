import type { Route } from './+types/category';
import { CacheStrategy } from '../../cache.ts';
import { CategoryPage, categoryMeta } from '../../components/blog/CategoryPage.tsx';
import { BlogRouteError } from '../../components/blog/ListViews.tsx';
import { requestContext } from '../../context.ts';
import { loadCategoryPage } from './blog-data.server.ts';

/** `/blog/category/:slug`: one category's posts. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadCategoryPage(context.get(requestContext).services, request, params.slug);
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.blog });

export const meta: Route.MetaFunction = ({ loaderData }) => categoryMeta(loaderData);

export default function BlogCategory({ loaderData }: Route.ComponentProps) {
  return <CategoryPage loaded={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BlogRouteError error={error} />;
}
