/**
 * The Boostly logo (decision 032): the mark, a violet rounded square with two rising chevrons
 * ("boost"), and the wordmark set in the brand font. The same mark is public/favicon.svg,
 * public/apple-touch-icon.png and public/images/logo.svg (for pages that show it as an image).
 */
export function LogoMark({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" width={32} height={32} className={className}>
      <rect width="32" height="32" rx="8" className="fill-brand-700" />
      <path
        d="M9 15.5 16 9l7 6.5M9 23l7-6.5 7 6.5"
        fill="none"
        className="stroke-white"
        strokeWidth={3.2}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Mark and wordmark; the link around it carries the accessible name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'sm' }) {
  return (
    <span className="flex items-center gap-2">
      <LogoMark className={size === 'md' ? 'h-9 w-9' : 'h-8 w-8'} />
      <span className={`font-extrabold tracking-tight text-ink ${size === 'md' ? 'text-2xl' : 'text-xl'}`}>
        Boostly
      </span>
    </span>
  );
}
