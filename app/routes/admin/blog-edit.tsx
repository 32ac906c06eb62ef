import { useNavigate } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/blog-edit';
import { CacheStrategy } from '../../cache.ts';
import { type AdminPostLoad, loadPostForAdmin } from '../../admin/blog/api.ts';
import { BLOG_FORM_MESSAGES, BlogForm } from '../../admin/blog/BlogForm.tsx';
import { AdminPageHeader } from '../../admin/list-parts.tsx';

/**
 * Edit a blog post (spec "Admin blog add and edit forms"): the post is fetched by its slug with
 * the admin's token (clientLoader), then edited in the same form as "add". When an update renames
 * the post, the page moves to the new address without asking about unsaved changes.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Edit blog post | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<AdminPostLoad> {
  return loadPostForAdmin(params.slug, request.signal);
}

function BackToList() {
  return (
    <Link
      to="/admin/blog"
      className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline hover:text-brand-800"
    >
      <span aria-hidden="true">←</span> All posts
    </Link>
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="blog-edit-title">
      <AdminPageHeader titleId="blog-edit-title" title="Edit blog post" before={<BackToList />} />
      <p role="status" className="text-gray-700">
        Loading the post...
      </p>
    </section>
  );
}

export default function EditBlogPostPage({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  return (
    <section aria-labelledby="blog-edit-title">
      <AdminPageHeader titleId="blog-edit-title" title="Edit blog post" before={<BackToList />} />
      {loaderData.ok ? (
        // Keyed by id: a rename moves to the new address but keeps the form (and its message).
        <BlogForm
          key={loaderData.post.id}
          post={loaderData.post}
          onSlugChanged={(slug) => void navigate(`/admin/blog/${encodeURIComponent(slug)}`, { replace: true })}
        />
      ) : loaderData.unauthorized ? null : (
        <div
          role="alert"
          data-testid="blog-fetch-error"
          className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          <p>{BLOG_FORM_MESSAGES.fetchFailed}</p>
          <p className="mt-1 font-normal">{loaderData.message}</p>
        </div>
      )}
    </section>
  );
}
