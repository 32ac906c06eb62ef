import type { ReactNode } from 'react';

/**
 * A decorative line icon on a 24×24 grid, drawn in the current text colour with round ends:
 * the shapes (`<path>`, `<circle>`) are its children. Hidden from assistive technology, so the
 * control it sits in must carry its own label.
 */
export function StrokeIcon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      {children}
    </svg>
  );
}
