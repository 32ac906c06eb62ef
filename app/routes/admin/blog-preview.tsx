import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/blog-preview';
import { CacheStrategy } from '../../cache.ts';
import { type AdminPostLoad, loadPostForAdmin } from '../../admin/blog/api.ts';
import { previewBannerWords } from '../../admin/blog/post-status.ts';
import { PostArticle } from '../../components/blog/PostArticle.tsx';
import { postPath } from '../../components/blog/format.ts';

/**
 * The owner's preview of a post, draft and scheduled ones included, as the site will show it.
 *
 * Rendered in the browser from the admin API with the admin's bearer token (clientLoader), inside
 * the guarded admin shell: the server's HTML holds nothing of the post, so the page gives a draft
 * to no one without the token, and no second credential (a signed preview link) exists that could
 * leak through a shared address or a referrer. Never cached, never indexed.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Preview blog post | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({
  'Cache-Control': CacheStrategy.none,
  'X-Robots-Tag': 'noindex, nofollow',
});

export function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<AdminPostLoad> {
  return loadPostForAdmin(params.slug, request.signal);
}

export function HydrateFallback() {
  return (
    <p role="status" className="text-gray-700">
      Loading the preview…
    </p>
  );
}

const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

export default function BlogPreviewPage({ loaderData, params }: Route.ComponentProps) {
  if (!loaderData.ok) {
    return loaderData.unauthorized ? null : (
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        <p className="font-medium">This post cannot be previewed: {loaderData.message}</p>
        <p className="mt-1">
          <Link to="/admin/blog" className={linkClass}>
            All posts
          </Link>
        </p>
      </div>
    );
  }
  const { post } = loaderData;
  const live = post.publishedAt !== null && post.publishedAt <= new Date().toISOString();
  return (
    <div className="overflow-hidden rounded-2xl border border-gray-200 bg-white">
      <div
        role="status"
        data-testid="preview-banner"
        className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      >
        <p className="font-bold">{previewBannerWords(post.publishedAt)}</p>
        <p className="flex flex-wrap gap-x-4">
          <Link to={`/admin/blog/${encodeURIComponent(params.slug)}`} className={linkClass}>
            Back to the editor
          </Link>
          {live ? (
            <a href={postPath(post.slug)} target="_blank" rel="noreferrer" className={linkClass}>
              View on site
            </a>
          ) : null}
        </p>
      </div>
      <PostArticle
        article={{
          ...post,
          picture: post.image ? { src: post.image, width: post.imageWidth, height: post.imageHeight } : null,
        }}
      />
    </div>
  );
}
