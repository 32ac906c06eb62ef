import { type FormEvent, useId } from 'react';
import { useNavigate } from 'react-router';
import { StrokeIcon } from '../StrokeIcon.tsx';
import { blogSearchPath } from './format.ts';

/**
 * The empty-result view's search box ('Type and hit enter...'). Enter goes to `/blog?s=` with the
 * trimmed text, or clears the search when it is empty (spec sections 2 and 8). Without JavaScript
 * it is a plain GET form to /blog, and the page trims `s` the same way.
 */
export function SearchForm({ defaultValue = '' }: { defaultValue?: string }) {
  const navigate = useNavigate();
  const inputId = useId();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = new FormData(event.currentTarget).get('s');
    void navigate(blogSearchPath(typeof text === 'string' ? text : ''));
  };
  return (
    <form role="search" method="get" action="/blog" onSubmit={onSubmit} className="relative mx-auto w-full max-w-md">
      <label htmlFor={inputId} className="sr-only">
        Search the blog
      </label>
      <input
        id={inputId}
        type="search"
        name="s"
        defaultValue={defaultValue}
        placeholder="Type and hit enter..."
        data-testid="blog-search-input"
        className="w-full rounded-xl border-2 border-gray-300 bg-white py-3 pl-4 pr-12 text-gray-900 placeholder:text-gray-600 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      />
      <button
        type="submit"
        className="absolute inset-y-0 right-0 flex w-12 items-center justify-center rounded-r-xl text-gray-700 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        <StrokeIcon className="h-5 w-5">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </StrokeIcon>
        <span className="sr-only">Search</span>
      </button>
    </form>
  );
}
