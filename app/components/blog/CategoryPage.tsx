import type { MetaDescriptor } from 'react-router';
import { categoryPath } from './format.ts';
import { NewerPostsLink, NoBlogs } from './ListViews.tsx';
import { PostList } from './PostList.tsx';
import { BLOG_SHARE_IMAGE } from '../../../core/blog/share-image.ts';
import { blogMeta } from './seo.ts';
import type { CategoryPageData } from './types.ts';

function pageHref(path: string, page: number): string {
  return page > 1 ? `${path}?page=${page}` : path;
}

/**
 * The canonical address of a category is its category page: `/instagram-issue` and
 * `/media-update` show the same list, so search engines see one page (decision 020).
 */
export function categoryMeta(loaded: CategoryPageData | undefined): MetaDescriptor[] {
  if (!loaded) return [{ title: 'Page not found | Boostly' }];
  const { category, list, publicUrl } = loaded;
  const pageSuffix = list.currentPage > 1 ? ` (page ${list.currentPage})` : '';
  return blogMeta({
    publicUrl,
    path: pageHref(categoryPath(category.slug), list.currentPage),
    title: `${category.name}${pageSuffix}`,
    description: `${category.name} from the Boostly blog: ${list.count} ${list.count === 1 ? 'post' : 'posts'} on growing your social media accounts.`,
    image: BLOG_SHARE_IMAGE,
  });
}

/** A category's posts, listed like /blog (cards, pages of 4, Load More). */
export function CategoryPage({ loaded }: { loaded: CategoryPageData }) {
  const { category, list, path } = loaded;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <p className="text-center text-sm font-semibold uppercase tracking-wide text-brand-700">Category</p>
      <h1 className="mt-1 text-center text-3xl font-extrabold text-gray-900 sm:text-4xl">{category.name}</h1>
      <div className="mt-10">
        {list.count === 0 ? (
          <NoBlogs />
        ) : (
          <>
            {list.currentPage > 1 ? <NewerPostsLink href={pageHref(path, list.currentPage - 1)} /> : null}
            <PostList
              key={`${category.slug}:${list.currentPage}`}
              initial={list}
              keyword=""
              categorySlug={category.slug}
              pageHref={(page) => pageHref(path, page)}
            />
          </>
        )}
      </div>
    </div>
  );
}
