import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/blog-add';
import { CacheStrategy } from '../../cache.ts';
import { BlogForm } from '../../admin/blog/BlogForm.tsx';
import { AdminPageHeader } from '../../admin/list-parts.tsx';

/**
 * Add a blog post (spec "Admin blog add and edit forms"). The form, and the lazily loaded Tiptap
 * editor inside it, live in app/admin/blog/.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Add blog post | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

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

export default function AddBlogPostPage() {
  return (
    <section aria-labelledby="blog-add-title">
      <AdminPageHeader titleId="blog-add-title" title="Add blog post" before={<BackToList />} />
      <BlogForm />
    </section>
  );
}
