/**
 * The one script a page without framework JavaScript carries (app/page-handle.ts), inline with the
 * response's nonce (a cached page allows it by hash, server/page-cache.ts). It does the two things
 * such a page cannot do in HTML and CSS:
 *
 * - the sale bar's countdown (TopBar.tsx, `data-ends-at`): ticks every second and removes the bar
 *   when the sale ends, as the React component does on other pages;
 * - the course page's share button (ShareCourse.tsx, `data-share-url`): shows it, then the system
 *   share sheet or a copied link, announced in the status line next to it.
 *
 * Everything else on those pages (menu, disclosures, search) is HTML. Written as a function so it
 * is type-checked and linted; it must use nothing from outside its own body, since it is sent as
 * text. The tests run it in Chromium (tests/e2e/framework-free.spec.ts).
 */
function plainPageScript(): void {
  const pad = (value: number) => String(value).padStart(2, '0');

  for (const timer of document.querySelectorAll<HTMLElement>('[data-ends-at]')) {
    const endsAt = Number(timer.dataset['endsAt']);
    // Same words as formatCountdown in TopBar.tsx.
    const tick = (): boolean => {
      const left = Math.max(0, Math.floor((endsAt - Date.now()) / 1000)) || 0;
      timer.textContent = `${pad(Math.floor(left / 3600))} hr ${pad(Math.floor((left % 3600) / 60))} min ${pad(left % 60)} sec`;
      if (left > 0) return true;
      timer.closest('section')?.remove();
      return false;
    };
    if (tick()) {
      const interval = setInterval(() => {
        if (!tick()) clearInterval(interval);
      }, 1000);
    }
  }

  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-share-url]')) {
    const box = button.closest<HTMLElement>('[data-share-box]');
    const status = box?.querySelector<HTMLElement>('[role="status"]');
    const { shareUrl: url = '', shareTitle: title = '', shareText: text = '', copied, failed } = button.dataset;
    const say = (state: 'idle' | 'copied' | 'failed', words = '') => {
      if (!status) return;
      status.dataset['state'] = state;
      status.textContent = words;
    };
    button.addEventListener('click', () => {
      say('idle');
      const copy = () =>
        navigator.clipboard.writeText(url).then(
          () => say('copied', copied),
          () => say('failed', failed),
        );
      if (typeof navigator.share !== 'function') {
        void copy();
        return;
      }
      // A closed share sheet is no failure; any other refusal falls back to copying.
      navigator.share({ title, text, url }).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) void copy();
      });
    });
    if (box) box.hidden = false;
  }
}

/** The script's text, as the page sends it. */
export const PLAIN_PAGE_SCRIPT = `(${plainPageScript.toString()})()`;
