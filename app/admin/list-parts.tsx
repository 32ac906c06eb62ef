import type { ReactNode } from 'react';
import { StrokeIcon } from '../components/StrokeIcon.tsx';
import { ButtonSpinner } from './orders.tsx';

/**
 * The pieces the admin list screens (orders, blog, messages) share: the search form, the live
 * count line, the failure banner with "Try again", the loading placeholders and the empty-state
 * box. Each screen passes its own words, test ids and spacing; the markup is the same everywhere.
 */

/**
 * Every admin screen's header (Polaris-style): the title, an optional line under it (a
 * description, or a live count), and the screen's primary action on the right, which wraps
 * under the title on narrow screens. `before` is for a "back to …" link above the title.
 */
export function AdminPageHeader({
  titleId,
  title,
  description,
  action,
  before,
  titleClassName = '',
}: {
  titleId: string;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  before?: ReactNode;
  /** Extra classes for the h1 (e.g. `break-all` for a title that is an e-mail address). */
  titleClassName?: string;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-3" data-testid="admin-page-header">
      <div className="min-w-0 flex-1 basis-64">
        {before}
        <h1
          id={titleId}
          className={`text-2xl font-extrabold text-gray-900 sm:text-3xl ${before ? 'mt-2' : ''} ${titleClassName}`}
        >
          {title}
        </h1>
        {typeof description === 'string' ? <p className="mt-1 text-sm text-gray-700">{description}</p> : description}
      </div>
      {action ? <div className="flex shrink-0 flex-wrap items-center gap-2">{action}</div> : null}
    </header>
  );
}

/** The admin screens' primary action (one per screen) and secondary buttons. */
export const adminPrimaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:bg-gray-500';
export const adminSecondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-900 hover:border-brand-600 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-gray-700 disabled:hover:border-gray-300';

/** The admin screens' text inputs and selects (border, focus ring). */
export const adminFieldClass =
  'rounded-xl border-2 border-gray-300 bg-white px-3 py-2 text-gray-900 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

/** The spinner beside "Loading ..." texts; held still for visitors who ask for reduced motion. */
function LoadingSpinner() {
  return (
    <span
      aria-hidden="true"
      className="h-6 w-6 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700 motion-reduce:animate-none"
    />
  );
}

interface LoadingProps {
  /** "Loading posts..." */
  label: string;
}

/** A list's placeholder: before its first page has arrived, or while a new one replaces none. */
export function ListLoading({ label, testId }: LoadingProps & { testId: string }) {
  return (
    <div
      role="status"
      data-testid={testId}
      className="mt-6 flex items-center gap-3 rounded-2xl border border-gray-200 bg-white px-6 py-10 text-gray-700"
    >
      <LoadingSpinner />
      {label}
    </div>
  );
}

/** A detail page's HydrateFallback: the page before its record has arrived in the browser. */
export function DetailLoadingPage({ label }: LoadingProps) {
  return (
    <section aria-busy="true">
      <div role="status" className="mt-6 flex items-center gap-3 text-gray-700">
        <LoadingSpinner />
        {label}
      </div>
    </section>
  );
}

interface AdminSearchFormProps {
  /** The input's id (the label points at it). */
  inputId: string;
  /** "Search posts": the label, and the search box's accessible name. */
  label: string;
  placeholder: string;
  maxLength: number;
  /** The form's own classes (its width and place in the screen's layout). */
  className: string;
  /** What the box shows (the screen keeps it: the address or a reset may change it). */
  value: string;
  onValueChange: (value: string) => void;
  /** Enter or the magnifier. */
  onSearch: () => void;
  /**
   * Called when the box is emptied (typed empty, or its ×) so the screen can show every row
   * again; screens that search only on Enter, or have no keyword in force, leave it out.
   */
  onCleared?: (() => void) | undefined;
  spellCheck?: boolean | undefined;
}

/** The labelled search box with the magnifier button; the form has the `search` role. */
export function AdminSearchForm({
  inputId,
  label,
  placeholder,
  maxLength,
  className,
  value,
  onValueChange,
  onSearch,
  onCleared,
  spellCheck,
}: AdminSearchFormProps) {
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
      className={className}
    >
      <label htmlFor={inputId} className="mb-1 block text-sm font-semibold text-gray-900">
        {label}
      </label>
      <div className="flex">
        <input
          id={inputId}
          type="search"
          name="keyword"
          value={value}
          onChange={(event) => {
            onValueChange(event.target.value);
            if (onCleared && event.target.value.trim() === '') onCleared();
          }}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={spellCheck}
          maxLength={maxLength}
          className={`${adminFieldClass} min-w-0 flex-1 rounded-r-none`}
        />
        <button
          type="submit"
          aria-label="Search"
          className="-ml-0.5 inline-flex items-center rounded-r-xl border-2 border-brand-700 bg-brand-700 px-3 text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          <StrokeIcon className="h-5 w-5">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-3.5-3.5" />
          </StrokeIcon>
        </button>
      </div>
    </form>
  );
}

interface ListCountProps {
  testId: string;
  /** The line's top margin ("mt-3" under a search form, "mt-1" under a title). */
  spacing: string;
  /** null while the list is loading or could not load: the line keeps its height, empty. */
  count: number | null;
  /** The noun, singular and plural: "post", "posts". */
  one: string;
  many: string;
  /** The count is the server's estimate: "about 1,200 orders". */
  approximate?: boolean;
  /** The keyword in force: "3 posts found for “seo”". */
  keyword?: string;
  /** Filters (but no keyword to name) are in force: "3 orders found". */
  filtered?: boolean;
}

/** "12 posts found for “seo”": the live line screen readers hear when a list arrives. */
export function ListCount({
  testId,
  spacing,
  count,
  one,
  many,
  approximate = false,
  keyword = '',
  filtered = false,
}: ListCountProps) {
  const found = keyword ? ` found for “${keyword}”` : filtered ? ' found' : '';
  return (
    <p className={`${spacing} text-sm text-gray-700`} data-testid={testId} aria-live="polite">
      {count === null
        ? '\u00a0'
        : `${approximate ? 'about ' : ''}${count.toLocaleString('en-US')} ${count === 1 ? one : many}${found}`}
    </p>
  );
}

interface ListLoadErrorProps {
  testId: string;
  /** The banner's top margin. */
  spacing: string;
  /** A sentence before the server's message ("The posts could not be loaded."), if any. */
  intro?: string;
  message: string;
  onRetry: () => void;
}

/** The red banner of a list that could not load, with "Try again". */
export function ListLoadError({ testId, spacing, intro, message, onRetry }: ListLoadErrorProps) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className={`${spacing} flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800`}
    >
      <span>
        {intro ? `${intro} ` : null}
        {message}
      </span>
      <button type="button" onClick={onRetry} className="font-semibold underline">
        Try again
      </button>
    </div>
  );
}

/**
 * The box shown instead of an empty list: what is (not) there, what to do next, and (optional)
 * the button or link that does it.
 */
export function ListEmpty({
  testId,
  title,
  hint,
  action,
}: {
  testId: string;
  title: string;
  hint: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      data-testid={testId}
      className="mt-4 rounded-2xl border border-dashed border-gray-300 bg-white px-6 py-10 text-center text-gray-700"
    >
      <StrokeIcon className="mx-auto h-8 w-8 text-gray-500">
        <path d="M4 13h4l2 3h4l2-3h4M4 13l2-8h12l2 8v6H4v-6Z" />
      </StrokeIcon>
      <p className="mt-3 font-semibold text-gray-900">{title}</p>
      <p className="mt-2 text-sm">{hint}</p>
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}

interface ListLoadMoreProps {
  /** "posts", "messages": the failure line says what could not be loaded. */
  noun: string;
  /** Whether a next page exists (and the list is ready). */
  show: boolean;
  loading: boolean;
  /** The last Load More's failure, if it failed. */
  error: string | null;
  onLoadMore: () => void;
}

/** The failure line of the last Load More, and the button that appends the next page. */
export function ListLoadMore({ noun, show, loading, error, onLoadMore }: ListLoadMoreProps) {
  return (
    <>
      {error ? (
        <p role="alert" className="mt-4 text-sm font-medium text-red-800">
          More {noun} could not be loaded: {error}
        </p>
      ) : null}

      {show ? (
        <div className="mt-6 flex justify-center">
          <button
            type="button"
            onClick={onLoadMore}
            disabled={loading}
            className="inline-flex items-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-5 py-2 text-sm font-semibold text-gray-900 hover:border-brand-600 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait"
          >
            {loading ? <ButtonSpinner /> : null}
            Load More
          </button>
        </div>
      ) : null}
    </>
  );
}
