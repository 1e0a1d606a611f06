import clsx from 'clsx';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button';
import styles from './Toast.module.css';

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastOptions {
  message: ReactNode;
  tone?: ToastTone;
  /** Time on screen before it dismisses itself; 0 keeps it until closed. */
  durationMs?: number;
}

interface ToastEntry extends Required<ToastOptions> {
  id: number;
}

export interface ToastApi {
  /** Shows a toast and returns its id. */
  showToast: (options: ToastOptions) => number;
  dismissToast: (id: number) => void;
}

export const DEFAULT_TOAST_DURATION_MS = 5_000;

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside a <ToastProvider>');
  return api;
}

/** Holds the toasts and renders them in one polite live region, so screen readers announce each new one. */
export function ToastProvider({ children }: { children?: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(1);

  const dismissToast = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const showToast = useCallback(({ message, tone = 'info', durationMs = DEFAULT_TOAST_DURATION_MS }: ToastOptions) => {
    const id = nextId.current++;
    setToasts((current) => [...current, { id, message, tone, durationMs }]);
    return id;
  }, []);

  const api = useMemo(() => ({ showToast, dismissToast }), [showToast, dismissToast]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className={styles.region} role="status" aria-live="polite" aria-label="Notifications">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismissToast} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ToastEntry; onDismiss: (id: number) => void }) {
  useEffect(() => {
    if (toast.durationMs <= 0) return;
    const timer = setTimeout(() => onDismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDismiss]);

  return (
    <div className={clsx(styles.toast, styles[toast.tone])}>
      <span className={styles.message}>{toast.message}</span>
      <Button variant="ghost" size="sm" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
        ×
      </Button>
    </div>
  );
}
