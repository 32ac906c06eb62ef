import { isRouteErrorResponse } from 'react-router';
import { Link } from '../Link.tsx';
import { NotFound } from '../NotFound.tsx';
import { SearchForm } from './SearchForm.tsx';

/** With `s`: the banner with the result count and the keyword (spec "Public blog"). */
export function SearchBanner({ count, keyword }: { count: number; keyword: string }) {
  return (
    <div data-testid="search-banner" className="rounded-2xl bg-brand-50 px-6 py-8 text-center">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">
        {`${count} ${count === 1 ? 'result' : 'results'} for “${keyword}”`}
      </h1>
      <p className="mt-2 text-gray-700">
        <Link to="/blog" className="font-semibold text-brand-700 underline hover:text-brand-800">
          Clear the search
        </Link>
      </p>
    </div>
  );
}

/** The spec's empty result of a search, with the search box to try again. */
export function NothingFound({ keyword }: { keyword: string }) {
  return (
    <section
      data-testid="nothing-found"
      aria-labelledby="nothing-found-heading"
      className="mx-auto max-w-2xl py-12 text-center"
    >
      <h2 id="nothing-found-heading" className="text-3xl font-bold text-gray-900">
        Nothing Found!
      </h2>
      <p className="mt-4 text-gray-700">
        Apologies, but no results were found for the requested archive. Try using the search with a relevent phrase to
        find the post you are looking for.
      </p>
      <div className="mt-8">
        <SearchForm key={keyword} defaultValue={keyword} />
      </div>
    </section>
  );
}

/** The spec's empty list without a search. */
export function NoBlogs() {
  return (
    <p data-testid="no-blogs" className="py-12 text-center text-lg text-gray-700">
      No blogs available at the moment. Please check back later!
    </p>
  );
}

/** The spec's error view: the list or the post could not be loaded. */
export function BlogErrorView() {
  return (
    <section data-testid="blog-error" className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-gray-900">We could not load the blog</h1>
      <p className="mt-4 text-gray-700">Something went wrong on our side. Please try again in a moment.</p>
      {/* A full load: the point is to ask the server again. */}
      <a
        href="/blog"
        className="mt-6 inline-block rounded-xl bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        Back to the blog
      </a>
    </section>
  );
}

/** Every blog route's ErrorBoundary: the store's not-found screen for a 404, the error view otherwise. */
export function BlogRouteError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <BlogErrorView />;
}

/** Server-rendered pages after the first link back to the page before (no-JS and crawlers). */
export function NewerPostsLink({ href }: { href: string }) {
  return (
    <p className="mb-6">
      <Link to={href} data-testid="newer-posts" className="font-semibold text-brand-700 underline hover:text-brand-800">
        ← Newer posts
      </Link>
    </p>
  );
}
