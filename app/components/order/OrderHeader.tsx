import { Link } from '../Link.tsx';
import { StrokeIcon } from '../StrokeIcon.tsx';

export const REPORT_ISSUE_TOOLTIP = 'Having issues? Report to us!';

/** The order page's own header (spec "Order page"): back, logo, profile and report-issue links. */
export function OrderHeader() {
  return (
    <header className="border-b border-gray-200 bg-white">
      <nav aria-label="Order page" className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <div className="flex items-center gap-3">
          <Link
            to="/"
            aria-label="Back to home"
            className="flex h-10 w-10 items-center justify-center rounded-full text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <StrokeIcon className="h-6 w-6">
              <path d="M15 19l-7-7 7-7" />
            </StrokeIcon>
          </Link>
          <Link to="/" className="shrink-0">
            <img src="/images/logo.svg" alt="Boostly home" width={140} height={35} className="h-8 w-auto sm:h-9" />
          </Link>
        </div>
        <ul className="flex items-center gap-2">
          <li>
            <Link
              to="/client"
              className="flex items-center gap-2 rounded-full px-3 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <StrokeIcon className="h-5 w-5 shrink-0">
                <circle cx="12" cy="8" r="4" />
                <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
              </StrokeIcon>
              <span className="sr-only sm:not-sr-only">My orders</span>
            </Link>
          </li>
          <li className="group relative">
            <Link
              to="/contact"
              title={REPORT_ISSUE_TOOLTIP}
              aria-describedby="report-issue-tooltip"
              data-testid="report-issue"
              className="flex items-center gap-2 rounded-full px-3 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <StrokeIcon className="h-5 w-5 shrink-0">
                <path d="M5 21V4m0 0h11l-2 4 2 4H5" />
              </StrokeIcon>
              <span className="sr-only sm:not-sr-only">Report an issue</span>
            </Link>
            <span
              id="report-issue-tooltip"
              role="tooltip"
              className="pointer-events-none invisible absolute top-full right-0 z-20 mt-2 w-max max-w-[14rem] rounded-lg bg-gray-900 px-3 py-2 text-xs font-medium text-white opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
            >
              {REPORT_ISSUE_TOOLTIP}
            </span>
          </li>
        </ul>
      </nav>
    </header>
  );
}
