import type { ReactNode } from 'react';

/**
 * The strip at the top of every mock-up page (docs/decisions/028-mock-up-pages.md): the page is a
 * preview, takes no payment and gives nothing away, and it says where the real thing is.
 */
export function PreviewBanner({ children }: { children: ReactNode }) {
  return (
    <section aria-label="Preview" data-testid="preview-banner" className="border-b border-amber-300 bg-amber-50">
      <p className="mx-auto max-w-5xl px-4 py-3 text-sm text-amber-950">
        <strong className="mr-2 inline-block rounded-md bg-amber-200 px-2 py-0.5 font-bold tracking-wide uppercase">
          Preview
        </strong>
        {children}
      </p>
    </section>
  );
}
