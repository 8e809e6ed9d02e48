import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from './icons.tsx';

export type ToastVariant = 'default' | 'success' | 'warning' | 'destructive';
export type ToastInput = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long it stays, in ms; [B3] default 5000. */
  duration?: number;
  /** [B12] One button beside the text (Undo); pressing it also dismisses the toast. */
  action?: { label: string; onClick: () => void };
};

type ShownToast = ToastInput & { id: number };

/** [B3]: a toast stays 5000 ms unless dismissed. */
export const TOAST_DURATION_MS = 5000;
/** [B3]: swiping right by this many pixels dismisses the toast. */
export const SWIPE_THRESHOLD_PX = 50;
/** [B3]: this key moves focus to the notification region. */
export const TOAST_HOTKEY = 'F8';

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

const ALERT_CLASS: Record<ToastVariant, string> = {
  default: 'alert-info',
  success: 'alert-success',
  warning: 'alert-warning',
  destructive: 'alert-error',
};

/**
 * [B3]: at most one toast is visible; a new one replaces the older one. (The seed
 * kept dismissed toasts in memory for 1,000,000 ms; here a dismissed toast is simply gone.)
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const nextId = useRef(0);
  const region = useRef<HTMLElement>(null);

  const show = useCallback((toast: ToastInput) => {
    nextId.current += 1;
    setCurrent({ ...toast, id: nextId.current });
  }, []);
  const dismiss = useCallback(() => setCurrent(null), []);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(dismiss, current.duration ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [current, dismiss]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <section ref={region} tabIndex={-1} className="toast toast-end z-[1000] outline-none" aria-label={`Notifications (${TOAST_HOTKEY})`}>
        {current && <ToastView key={current.id} toast={current} onDismiss={dismiss} />}
      </section>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: ShownToast; onDismiss: () => void }) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  return (
    <div
      role={toast.variant === 'destructive' || toast.variant === 'warning' ? 'alert' : 'status'}
      className={`alert ${ALERT_CLASS[toast.variant ?? 'default']} touch-pan-y shadow-lg`}
      style={offset > 0 ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
      onPointerDown={(event) => {
        start.current = event.clientX;
      }}
      onPointerMove={(event) => {
        if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
      }}
      onPointerUp={(event) => {
        const moved = start.current === null ? 0 : event.clientX - start.current;
        start.current = null;
        if (moved >= SWIPE_THRESHOLD_PX) onDismiss();
        else setOffset(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
    >
      <div>
        <p className="font-semibold">{toast.title}</p>
        {toast.description && <p className="text-sm">{toast.description}</p>}
      </div>
      {toast.action && (
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => {
            onDismiss();
            toast.action?.onClick();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="btn btn-ghost btn-xs" aria-label="Dismiss" onClick={onDismiss}>
        <CloseIcon className="size-3.5" />
      </button>
    </div>
  );
}

export function useToast(): (toast: ToastInput) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a <ToastProvider>');
  return useMemo(() => show, [show]);
}
