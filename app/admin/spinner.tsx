/** The small spinner of a busy button (its own module: the dialogs and the order screens both use it). */
export function ButtonSpinner({ className = 'border-current/30 border-t-current' }: { className?: string }) {
  return <span aria-hidden="true" className={`inline-block h-4 w-4 animate-spin rounded-full border-2 ${className}`} />;
}
