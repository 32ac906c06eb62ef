import { useState } from 'react';
import { useHydrated } from '../../hydrated.ts';

type ShareState = 'idle' | 'copied' | 'failed';

export interface ShareCourseProps {
  title: string;
  text: string;
  /** The course page's absolute address. */
  url: string;
}

/**
 * The spec's share link: the system share sheet (Web Share API) where the browser has one,
 * otherwise the address is copied to the clipboard and "Link copied" is announced. Without
 * JavaScript neither works, so the button appears only once the page is hydrated: never a dead
 * button (the browser's own share and copy still work).
 */
export function ShareCourse({ title, text, url }: ShareCourseProps) {
  const hydrated = useHydrated();
  const [state, setState] = useState<ShareState>('idle');

  async function share() {
    setState('idle');
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        // The visitor closed the share sheet: nothing to report. Any other failure falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  if (!hydrated) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={() => void share()}
        data-testid="share-course"
        className="inline-flex items-center gap-2 rounded-xl border border-gray-300 bg-white px-4 py-2 font-semibold text-gray-900 hover:border-brand-700 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-none stroke-current" strokeWidth="1.8">
          <circle cx="15" cy="4.5" r="2.5" />
          <circle cx="5" cy="10" r="2.5" />
          <circle cx="15" cy="15.5" r="2.5" />
          <path d="M7.2 8.8l5.6-3M7.2 11.2l5.6 3" />
        </svg>
        Share this course
      </button>
      <p role="status" className="text-sm font-medium" data-testid="share-status">
        {state === 'copied' ? <span className="text-green-800">Link copied</span> : null}
        {state === 'failed' ? (
          <span className="text-red-800">Could not copy the link: copy it from the address bar.</span>
        ) : null}
      </p>
    </div>
  );
}
