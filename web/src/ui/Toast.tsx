import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export type ToastVariant = 'default' | 'success' | 'destructive';
export type ToastInput = { title: string; description?: string; variant?: ToastVariant };
type ShownToast = ToastInput & { id: number };

/** SPEC §9: a toast stays 5000 ms unless dismissed. */
export const TOAST_DURATION_MS = 5000;

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

const ALERT_CLASS: Record<ToastVariant, string> = {
  default: 'alert-info',
  success: 'alert-success',
  destructive: 'alert-error',
};

/** SPEC §4: at most one toast is visible; a new one replaces the older one. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const nextId = useRef(0);

  const show = useCallback((toast: ToastInput) => {
    nextId.current += 1;
    setCurrent({ ...toast, id: nextId.current });
  }, []);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toast toast-end z-50" role="region" aria-label="Notifications">
        {current && (
          <div
            key={current.id}
            role={current.variant === 'destructive' ? 'alert' : 'status'}
            className={`alert ${ALERT_CLASS[current.variant ?? 'default']} shadow-lg`}
          >
            <div>
              <p className="font-semibold">{current.title}</p>
              {current.description && <p className="text-sm">{current.description}</p>}
            </div>
            <button type="button" className="btn btn-ghost btn-xs" aria-label="Dismiss" onClick={() => setCurrent(null)}>
              ✕
            </button>
          </div>
        )}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): (toast: ToastInput) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a <ToastProvider>');
  return useMemo(() => show, [show]);
}
