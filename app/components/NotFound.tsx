import { Link } from './Link.tsx';

/**
 * The spec's not-found screen: "Error / The page you are looking for could not be found", link back
 * to /. Any other failure of a page says its own words in the same frame.
 */
export function NotFound({
  mark = '?',
  heading = 'Error',
  text = 'The page you are looking for could not be found',
}: {
  mark?: string;
  heading?: string;
  text?: string;
}) {
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <p
        aria-hidden="true"
        className="mb-6 flex h-20 w-20 items-center justify-center rounded-full bg-brand-50 text-4xl font-bold text-brand-700"
      >
        {mark}
      </p>
      <h1 className="text-4xl font-bold tracking-tight text-gray-900">{heading}</h1>
      <p className="mt-3 text-lg text-gray-600">{text}</p>
      <Link
        to="/"
        className="mt-8 inline-flex items-center rounded-full bg-brand-700 px-6 py-3 font-semibold text-white shadow-sm hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        Back to home
      </Link>
    </div>
  );
}
