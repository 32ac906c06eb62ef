export interface SpinnerProps {
  /** Announced to screen readers; not shown. */
  label?: string;
  /** Extra classes for the wrapper (e.g. margins). */
  className?: string;
}

/** An animated ring with a visually hidden label. */
export function Spinner({ label = 'Loading', className = '' }: SpinnerProps) {
  return (
    <div role="status" className={`flex items-center justify-center py-6 ${className}`}>
      <span
        aria-hidden="true"
        className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700 motion-reduce:animate-[spin_2s_linear_infinite]"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** The small white ring inside a primary button while its request runs. */
export function ButtonSpinner() {
  return (
    <span aria-hidden="true" className="h-5 w-5 animate-spin rounded-full border-2 border-white/40 border-t-white" />
  );
}
