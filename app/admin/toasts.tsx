/**
 * Admin toasts (spec "Admin all-orders": top-right, 3 seconds; section 9: "admin page 3 s").
 * `<ToastProvider>` in the admin layout owns one always-present live region, so screen readers
 * announce each toast as it appears; `useToasts().show(message, kind)` adds one.
 */
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { StrokeIcon } from '../components/StrokeIcon.tsx';

/** Spec section 9: toasts in the admin area stay 3 seconds. */
export const ADMIN_TOAST_MS = 3000;

export type ToastKind = 'success' | 'error' | 'info';

interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
  detail?: string | undefined;
}

export interface Toasts {
  /** Shows a toast for 3 s. `detail` is a smaller second line (e.g. the server's reason). */
  show(message: string, kind?: ToastKind, detail?: string): void;
}

const ToastContext = createContext<Toasts | null>(null);

export function useToasts(): Toasts {
  const toasts = useContext(ToastContext);
  if (!toasts) throw new Error('useToasts() must be used inside <ToastProvider>');
  return toasts;
}

const KIND_STYLES: Record<ToastKind, string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-brand-200 bg-brand-50 text-brand-900',
};

function KindIcon({ kind }: { kind: ToastKind }) {
  const path =
    kind === 'success'
      ? 'M5 13l4 4L19 7'
      : kind === 'error'
        ? 'M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z'
        : 'M12 8h.01M11 12h1v5h1M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z';
  return (
    <StrokeIcon className="mt-0.5 h-5 w-5 shrink-0">
      <path d={path} />
    </StrokeIcon>
  );
}

export function ToastProvider({ children, durationMs = ADMIN_TOAST_MS }: { children: ReactNode; durationMs?: number }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (message: string, kind: ToastKind = 'info', detail?: string) => {
      const id = nextId.current++;
      setToasts((current) => [...current, { id, message, kind, detail }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), durationMs),
      );
    },
    [dismiss, durationMs],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const value = useMemo<Toasts>(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        role="status"
        aria-live="polite"
        aria-atomic="false"
        data-testid="toast-region"
        className="pointer-events-none fixed top-4 right-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            data-testid="toast"
            data-kind={toast.kind}
            className={`pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm font-medium shadow-lg ${KIND_STYLES[toast.kind]}`}
          >
            <KindIcon kind={toast.kind} />
            <div className="min-w-0 flex-1">
              <p data-testid="toast-message">{toast.message}</p>
              {toast.detail ? <p className="mt-0.5 text-xs font-normal break-words">{toast.detail}</p> : null}
            </div>
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              aria-label="Dismiss notification"
              className="-m-1 rounded p-1 hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-current"
            >
              <StrokeIcon className="h-4 w-4">
                <path d="M6 6l12 12M18 6 6 18" />
              </StrokeIcon>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
