import { data, useLocation } from 'react-router';
import type { Route } from './+types/index';
import { CacheStrategy } from '../../cache.ts';
import {
  BlogRouteError,
  NewerPostsLink,
  NoBlogs,
  NothingFound,
  SearchBanner,
} from '../../components/blog/ListViews.tsx';
import { PostList } from '../../components/blog/PostList.tsx';
import { blogMeta } from '../../components/blog/seo.ts';
import { BLOG_SHARE_IMAGE } from '../../../core/blog/share-image.ts';
import { requestContext } from '../../context.ts';
import { loadListPage, requestedPage, searchKeyword } from './blog-data.server.ts';

const BLOG_TITLE = '#1 Social Media Blog';
const BLOG_DESCRIPTION =
  'Practical guides for growing Instagram, YouTube and TikTok accounts safely, and the platform updates that matter.';

/** `/blog`, a search (`s`) or a later page (`page`), as a URL. */
function listHref(keyword: string, page: number): string {
  const query = new URLSearchParams();
  if (keyword) query.set('s', keyword);
  if (page > 1) query.set('page', String(page));
  const search = query.toString();
  return search ? `/blog?${search}` : '/blog';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { blog, publicUrl } = context.get(requestContext).services;
  const url = new URL(request.url);
  const keyword = searchKeyword(url);
  const list = await loadListPage(blog, { keyword, page: requestedPage(url) });
  // Search results are not cached: every keyword would be a page-cache entry pushing out real pages.
  const cacheControl = keyword ? CacheStrategy.none : CacheStrategy.blog;
  return data({ list, keyword, publicUrl }, { headers: { 'Cache-Control': cacheControl } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => ({
  'Cache-Control': loaderHeaders.get('Cache-Control') ?? CacheStrategy.none,
});

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: 'Page not found | Boostly' }];
  const { keyword, list, publicUrl } = loaderData;
  const pageSuffix = list.currentPage > 1 ? ` (page ${list.currentPage})` : '';
  return blogMeta({
    publicUrl,
    path: listHref(keyword, list.currentPage),
    title: keyword ? `Search results for “${keyword}”${pageSuffix}` : `${BLOG_TITLE}${pageSuffix}`,
    description: keyword ? `${list.count} blog posts about “${keyword}”.` : BLOG_DESCRIPTION,
    image: BLOG_SHARE_IMAGE,
    noindex: keyword !== '',
  });
};

export default function BlogIndex({ loaderData }: Route.ComponentProps) {
  const { list, keyword } = loaderData;
  const { search } = useLocation();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      {keyword ? (
        <SearchBanner count={list.count} keyword={keyword} />
      ) : (
        <h1 className="text-center text-3xl font-extrabold text-gray-900 sm:text-4xl">{BLOG_TITLE}</h1>
      )}
      <div className="mt-10">
        {list.count === 0 ? (
          keyword ? (
            <NothingFound keyword={keyword} />
          ) : (
            <NoBlogs />
          )
        ) : (
          <>
            {list.currentPage > 1 ? <NewerPostsLink href={listHref(keyword, list.currentPage - 1)} /> : null}
            {/* A new search or page starts a new list. */}
            <PostList key={search} initial={list} keyword={keyword} pageHref={(page) => listHref(keyword, page)} />
          </>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BlogRouteError error={error} />;
}
