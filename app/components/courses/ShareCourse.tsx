import { useState } from 'react';
import { useHydrated } from '../../hydrated.ts';

type ShareState = 'idle' | 'copied' | 'failed';

/** What the status line says after a share (the plain page script reads them from the button). */
const SHARE_MESSAGES = {
  copied: 'Link copied',
  failed: 'Could not copy the link: copy it from the address bar.',
} as const;

export interface ShareCourseProps {
  title: string;
  text: string;
  /** The course page's absolute address. */
  url: string;
}

/**
 * The spec's share link: the system share sheet (Web Share API) where the browser has one,
 * otherwise the address is copied to the clipboard and "Link copied" is announced. Without
 * JavaScript neither works, so the button stays hidden until a script takes it: React once the
 * page is hydrated or rendered in the browser, or, on the course page (no framework JavaScript,
 * app/page-handle.ts), the plain page script (app/plain-page-script.server.ts), which finds the
 * button by `data-share-url`. Never a dead button: the browser's own share and copy still work.
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

  return (
    <div className="flex flex-wrap items-center gap-3" hidden={!hydrated} data-share-box="">
      <button
        type="button"
        onClick={hydrated ? () => void share() : undefined}
        data-testid="share-course"
        data-share-url={url}
        data-share-title={title}
        data-share-text={text}
        data-copied={SHARE_MESSAGES.copied}
        data-failed={SHARE_MESSAGES.failed}
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
      <p
        role="status"
        data-state={state}
        className="text-sm font-medium data-[state=copied]:text-green-800 data-[state=failed]:text-red-800"
        data-testid="share-status"
      >
        {state === 'idle' ? null : SHARE_MESSAGES[state]}
      </p>
    </div>
  );
}
