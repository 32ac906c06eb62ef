import { useId, useState } from 'react';
import { useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/blog';
import type { BlogPostSummary } from '../../../core/blog/contracts.ts';
import { CacheStrategy } from '../../cache.ts';
import { ADMIN_BLOG_PAGE_SIZE, type BlogListReply, deleteBlogPost, listBlogPosts } from '../../admin/blog/api.ts';
import { ConfirmDialog } from '../../admin/blog/ConfirmDialog.tsx';
import {
  AdminPageHeader,
  AdminSearchForm,
  adminPrimaryButtonClass,
  ListCount,
  ListEmpty,
  ListLoadError,
  ListLoading,
  ListLoadMore,
} from '../../admin/list-parts.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';
import { StrokeIcon } from '../../components/StrokeIcon.tsx';

/**
 * Admin blog list (spec "Admin blog list", sections 4, 8, 9): search (Enter or the magnifier;
 * clearing the box shows every post again), the posts table with edit and delete, and "Load More"
 * appending pages of 10. The keyword lives in the address (a reload keeps it); the route's
 * clientLoader fetches the first page with the admin's token, further pages are appended here.
 * Titles are shown as text, never as HTML.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Blog | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

/** Spec section 8. */
export const BLOG_LIST_MESSAGES = {
  noResults: 'No blogs found.',
  empty: 'You have no blogs yet.',
  deleteTitle: 'Are you sure?',
  deleteText: "You won't be able to revert this!",
  deleted: 'Deleted!',
} as const;

const MAX_KEYWORD_LENGTH = 200;

type ListLoad =
  | { ok: true; keyword: string; reply: BlogListReply }
  /** `unauthorized`: the token was refused and the layout is on its way to /login. */
  | { ok: false; keyword: string; message: string; unauthorized: boolean };

function keywordOf(url: URL): string {
  return (url.searchParams.get('keyword') ?? '').trim().slice(0, MAX_KEYWORD_LENGTH);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<ListLoad> {
  const keyword = keywordOf(new URL(request.url));
  try {
    const reply = await listBlogPosts({ keyword, page: 1 }, request.signal);
    return { ok: true, keyword, reply };
  } catch (error) {
    if (isAbort(error)) throw error;
    // Spec section 8: a list failure is logged; the page says it could not load, with a retry.
    console.error('GET /api/blog failed', error);
    return { ok: false, keyword, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

function Header({ titleId }: { titleId: string }) {
  return (
    <AdminPageHeader
      titleId={titleId}
      title="Blog"
      description="The articles on /blog: write, edit and delete posts."
      action={
        <Link to="/admin/blog/add" className={adminPrimaryButtonClass}>
          <StrokeIcon className="h-4 w-4">
            <path d="M12 5v14M5 12h14" />
          </StrokeIcon>
          Add New
        </Link>
      }
    />
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="admin-blog-title">
      <Header titleId="admin-blog-title" />
      <ListLoading testId="blog-list-loading" label="Loading posts..." />
    </section>
  );
}

/** The rows shown: the loader's first page, the pages appended since, minus deleted posts. */
interface Rows {
  /** The loader result these rows continue; a new one (search, reload) starts over. */
  base: ListLoad;
  posts: BlogPostSummary[];
  /** The server's count for this list, less the posts deleted here. */
  count: number;
}

function rowsOf(list: ListLoad): Rows {
  return list.ok
    ? { base: list, posts: list.reply.data, count: list.reply.count }
    : { base: list, posts: [], count: 0 };
}

const iconButton =
  'inline-flex h-9 w-9 items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2';

function postStatus(post: BlogPostSummary): 'draft' | 'scheduled' | 'published' {
  if (post.publishedAt === null) return 'draft';
  return post.publishedAt > new Date().toISOString() ? 'scheduled' : 'published';
}

const shortDate = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The posts list's status column: when it went (or goes) live, or a draft with its last edit. */
function postStatusLine(post: BlogPostSummary): string {
  const status = postStatus(post);
  if (status === 'draft' || post.publishedAt === null) return `Draft · edited ${shortDate(post.updatedAt)}`;
  return `${status === 'scheduled' ? 'Scheduled' : 'Published'} · ${shortDate(post.publishedAt)}`;
}

export default function AdminBlogListPage({ loaderData: list }: Route.ComponentProps) {
  const ids = useId();
  const toasts = useToasts();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [, setSearchParams] = useSearchParams();
  const [rows, setRows] = useState<Rows>(() => rowsOf(list));
  const [keywordInput, setKeywordInput] = useState(list.keyword);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<BlogPostSummary | null>(null);
  const [deleting, setDeleting] = useState(false);

  // A new first page (search, clear, back/forward, reload) replaces everything appended.
  if (rows.base !== list) {
    setRows(rowsOf(list));
    setKeywordInput(list.keyword);
    setLoadMoreError(null);
  }

  const searching = navigation.state === 'loading' && navigation.location.pathname === '/admin/blog';
  const loading = searching || (!list.ok && revalidator.state === 'loading');

  const search = (keyword: string) => {
    const trimmed = keyword.trim();
    setKeywordInput(trimmed);
    if (trimmed === list.keyword) void revalidator.revalidate();
    else setSearchParams(trimmed ? { keyword: trimmed } : {});
  };

  const loadMore = async () => {
    setLoadingMore(true);
    setLoadMoreError(null);
    const base = rows.base;
    const shown = new Set(rows.posts.map((post) => post.id));
    const added: BlogPostSummary[] = [];
    // Start at the page holding the first post not shown yet, counted from what is shown: posts
    // deleted here shifted the server's pages, so that page may repeat some rows (skipped) and
    // end early, and the next page completes the 10.
    let page = Math.floor(rows.posts.length / ADMIN_BLOG_PAGE_SIZE) + 1;
    let count = rows.count;
    try {
      for (let fetches = 0; fetches < 2 && added.length < ADMIN_BLOG_PAGE_SIZE; fetches += 1, page += 1) {
        const reply = await listBlogPosts({ keyword: list.keyword, page });
        count = reply.count;
        for (const post of reply.data) {
          if (!shown.has(post.id) && added.length < ADMIN_BLOG_PAGE_SIZE) {
            shown.add(post.id);
            added.push(post);
          }
        }
        if (page >= reply.totalPages) break;
      }
    } catch (error) {
      if (!isUnauthorized(error)) {
        console.error('GET /api/blog failed', error);
        setLoadMoreError(messageOf(error));
      }
    } finally {
      setRows((current) =>
        current.base === base && added.length > 0
          ? {
              base,
              posts: [...current.posts, ...added.filter((post) => !current.posts.some((row) => row.id === post.id))],
              count,
            }
          : current,
      );
      setLoadingMore(false);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const post = toDelete;
    setDeleting(true);
    try {
      await deleteBlogPost(post.id);
      // Only now that the server said yes (spec section 4).
      setRows((current) => ({
        ...current,
        posts: current.posts.filter((row) => row.id !== post.id),
        count: Math.max(0, current.count - 1),
      }));
      toasts.show(BLOG_LIST_MESSAGES.deleted, 'success', post.title);
    } catch (error) {
      if (!isUnauthorized(error)) {
        console.error(`DELETE /api/blog/${post.id} failed`, error);
        toasts.show('The post was not deleted', 'error', messageOf(error));
      }
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  const listState = loading ? 'loading' : list.ok ? 'ready' : list.unauthorized ? 'leaving' : 'failed';
  const hasMore = rows.posts.length < rows.count;

  return (
    <section aria-labelledby={`${ids}-title`}>
      <Header titleId={`${ids}-title`} />

      <AdminSearchForm
        inputId={`${ids}-search`}
        label="Search posts"
        placeholder="Title or text"
        maxLength={MAX_KEYWORD_LENGTH}
        className="mt-6 max-w-md"
        value={keywordInput}
        onValueChange={setKeywordInput}
        onSearch={() => search(keywordInput)}
        // Clearing the box (typing it empty or its ×) shows every post again, from page 1.
        onCleared={list.keyword !== '' ? () => search('') : undefined}
      />

      <ListCount
        testId="blog-count"
        spacing="mt-3"
        count={listState === 'ready' ? rows.count : null}
        one="post"
        many="posts"
        keyword={list.keyword}
      />

      {listState === 'failed' && !list.ok ? (
        <ListLoadError
          testId="blog-list-error"
          spacing="mt-4"
          intro="The posts could not be loaded."
          message={list.message}
          onRetry={() => void revalidator.revalidate()}
        />
      ) : null}

      {listState === 'loading' && rows.posts.length === 0 ? (
        <ListLoading testId="blog-list-loading" label="Loading posts..." />
      ) : null}

      {listState === 'ready' && rows.posts.length === 0 ? (
        <ListEmpty
          testId="blog-empty"
          title={list.keyword ? BLOG_LIST_MESSAGES.noResults : BLOG_LIST_MESSAGES.empty}
          hint={
            list.keyword ? (
              'Try another word, or clear the search to see every post.'
            ) : (
              <>
                <Link to="/admin/blog/add" className="font-semibold text-brand-700 underline hover:text-brand-800">
                  Write the first post
                </Link>
                : it appears on the public blog as soon as you publish it.
              </>
            )
          }
        />
      ) : null}

      {rows.posts.length > 0 ? (
        <div
          role="region"
          aria-label="Blog posts"
          aria-busy={listState === 'loading'}
          tabIndex={0}
          className={`relative mt-4 overflow-x-auto rounded-2xl border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700 ${
            listState === 'loading' ? 'opacity-60' : ''
          }`}
        >
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="blog-table">
            <caption className="sr-only">
              {list.keyword ? `Blog posts matching “${list.keyword}”, best match first` : 'Blog posts, newest first'}
            </caption>
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-700 uppercase">
              <tr>
                <th scope="col" className="w-24 px-4 py-3">
                  Image
                </th>
                <th scope="col" className="px-4 py-3">
                  Title
                </th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                  Category
                </th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                  Status
                </th>
                <th scope="col" className="w-28 px-4 py-3 text-right">
                  Action
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {rows.posts.map((post) => (
                <tr key={post.id} data-testid="blog-row" data-slug={post.slug} className="align-middle">
                  <td className="px-4 py-3">
                    {post.image ? (
                      <img
                        src={post.image}
                        alt=""
                        width={64}
                        height={40}
                        loading="lazy"
                        className="h-10 w-16 rounded-md border border-gray-200 object-cover"
                      />
                    ) : (
                      <span className="flex h-10 w-16 items-center justify-center rounded-md bg-gray-100 text-xs text-gray-700">
                        No image
                      </span>
                    )}
                  </td>
                  <th scope="row" className="px-4 py-3 font-semibold break-words text-gray-900">
                    <span data-testid="blog-row-title">{post.title}</span>
                    <span className="mt-0.5 block text-xs font-normal text-gray-700 sm:hidden">{post.category}</span>
                    <span className="mt-0.5 block text-xs font-normal text-gray-700 sm:hidden">
                      {postStatusLine(post)}
                    </span>
                  </th>
                  <td className="hidden px-4 py-3 text-gray-900 sm:table-cell" data-testid="blog-row-category">
                    {post.category || <span className="text-gray-700">—</span>}
                  </td>
                  <td className="hidden px-4 py-3 text-gray-900 sm:table-cell" data-testid="blog-row-status">
                    {postStatusLine(post)}
                  </td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    {postStatus(post) === 'published' ? (
                      <a
                        href={`/blog/${encodeURIComponent(post.slug)}`}
                        target="_blank"
                        rel="noreferrer"
                        aria-label={`View “${post.title}” on the site (opens in a new tab)`}
                        title="View on site"
                        className={`${iconButton} text-brand-700 hover:bg-brand-50 focus-visible:outline-brand-700`}
                      >
                        <StrokeIcon className="h-5 w-5">
                          <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
                        </StrokeIcon>
                      </a>
                    ) : null}
                    <Link
                      to={`/admin/blog/${encodeURIComponent(post.slug)}`}
                      aria-label={`Edit “${post.title}”`}
                      title="Edit"
                      className={`${iconButton} text-brand-700 hover:bg-brand-50 focus-visible:outline-brand-700`}
                    >
                      <StrokeIcon className="h-5 w-5">
                        <path d="M4 20h4L19 9l-4-4L4 16v4ZM13.5 6.5l4 4" />
                      </StrokeIcon>
                    </Link>
                    <button
                      type="button"
                      onClick={() => setToDelete(post)}
                      aria-label={`Delete “${post.title}”`}
                      title="Delete"
                      className={`${iconButton} ml-1 text-red-700 hover:bg-red-50 focus-visible:outline-red-700`}
                    >
                      <StrokeIcon className="h-5 w-5">
                        <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
                      </StrokeIcon>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <ListLoadMore
        noun="posts"
        show={listState === 'ready' && hasMore}
        loading={loadingMore}
        error={loadMoreError}
        onLoadMore={() => void loadMore()}
      />

      <ConfirmDialog
        open={toDelete !== null}
        title={BLOG_LIST_MESSAGES.deleteTitle}
        text={BLOG_LIST_MESSAGES.deleteText}
        confirmLabel="Confirm"
        destructive
        busy={deleting}
        testId="delete-dialog"
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
