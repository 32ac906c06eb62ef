import { type MouseEvent, useEffect, useRef, useState } from 'react';
import type { BlogPostSummary } from '../../../core/blog/contracts.ts';
import { api, isAbort, messageOf } from '../../api/client.ts';
import { ButtonSpinner } from '../Spinner.tsx';
import { PostCard } from './PostCard.tsx';
import { BLOG_PAGE_SIZE, type BlogCard, type BlogListPage } from './types.ts';

/** `GET /api/blog` (spec section 7): the envelope plus the page figures. */
interface BlogListReply {
  message: string;
  data: BlogPostSummary[];
  count: number;
  totalPages: number;
  currentPage: number;
}

/** Cards fetched in the browser: the stored image as it is (the server adds `srcset` on its own pages). */
function cardOf(post: BlogPostSummary): BlogCard {
  return {
    ...post,
    picture: post.image ? { src: post.image, width: post.imageWidth, height: post.imageHeight } : null,
  };
}

export interface PostListProps {
  initial: BlogListPage;
  /** The search keyword, already trimmed ('' for none). */
  keyword: string;
  /** Lists one category's posts (the category pages). */
  categorySlug?: string | undefined;
  /** The page's own URL for page N: the Load More link without JavaScript, and for crawlers. */
  pageHref: (page: number) => string;
}

type LoadMoreState = { status: 'idle' } | { status: 'loading' } | { status: 'failed'; message: string };

/**
 * The cards and the spec's Load More (pages of 4). Load More is a real link to the next page, so
 * it works without JavaScript; with it, the next page comes from the API and is appended here.
 */
export function PostList({ initial, keyword, categorySlug, pageHref }: PostListProps) {
  const [cards, setCards] = useState(initial.cards);
  const [pages, setPages] = useState({ current: initial.currentPage, total: initial.totalPages });
  const [loadMore, setLoadMore] = useState<LoadMoreState>({ status: 'idle' });
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  /** The index of the first card a Load More appended: it gets the focus once rendered. */
  const focusFrom = useRef<number | null>(null);
  const inflight = useRef<AbortController | null>(null);

  useEffect(() => () => inflight.current?.abort(), []);

  useEffect(() => {
    if (focusFrom.current === null) return;
    const item = listRef.current?.children.item(focusFrom.current);
    focusFrom.current = null;
    item?.querySelector<HTMLAnchorElement>('h2 a, h3 a')?.focus();
  }, [cards]);

  const next = pages.current + 1;
  const hasMore = pages.current < pages.total;

  const onLoadMore = async (event: MouseEvent<HTMLAnchorElement>) => {
    // A modified click opens the next page in a new tab, as a link does.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (loadMore.status === 'loading') return;
    const controller = new AbortController();
    inflight.current = controller;
    setLoadMore({ status: 'loading' });
    try {
      const reply = await api.send<BlogListReply>('GET', '/api/blog', {
        signal: controller.signal,
        query: { keyword: keyword || undefined, category: categorySlug, page: next, size: BLOG_PAGE_SIZE },
      });
      // A post published meanwhile shifts the pages by one: never show a card twice.
      const known = new Set(cards.map((card) => card.id));
      const added = reply.data.filter((post) => !known.has(post.id)).map(cardOf);
      focusFrom.current = added.length > 0 ? cards.length : null;
      setCards([...cards, ...added]);
      setPages({ current: reply.currentPage, total: reply.totalPages });
      setLoadMore({ status: 'idle' });
      setAnnouncement(`${added.length} more ${added.length === 1 ? 'post' : 'posts'} loaded`);
    } catch (error) {
      if (isAbort(error)) return;
      setLoadMore({ status: 'failed', message: messageOf(error) });
    }
  };

  return (
    <>
      <ul ref={listRef} data-testid="blog-list" className="grid gap-6 sm:grid-cols-2">
        {cards.map((card, index) => (
          <li key={card.id} className="flex">
            <PostCard card={card} eager={index === 0} />
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {loadMore.status === 'failed' ? (
        <div
          role="alert"
          data-testid="blog-load-error"
          className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-center text-red-800"
        >
          <p className="font-semibold">We could not load more posts.</p>
          <p className="mt-1 text-sm">{loadMore.message}</p>
        </div>
      ) : null}
      {hasMore ? (
        <div className="mt-10 flex justify-center">
          <a
            href={pageHref(next)}
            onClick={(event) => void onLoadMore(event)}
            aria-disabled={loadMore.status === 'loading' || undefined}
            data-testid="load-more"
            className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-8 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {loadMore.status === 'loading' ? <ButtonSpinner /> : null}
            {loadMore.status === 'failed' ? 'Try again' : 'Load More'}
          </a>
        </div>
      ) : null}
    </>
  );
}
