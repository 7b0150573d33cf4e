import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useState,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { DEFAULT_TOAST_MS, TOAST_FADE_BEFORE_MS } from '../lib/constants.ts';

/** A message toast (SPEC section 3): newest first, removable by id, optionally linking somewhere. */
export type ToastType = 'ERROR' | 'SUCCESS' | 'INFO' | 'CHAPTER_UPDATE';

export interface Toast {
  id: string;
  text: string;
  type: ToastType;
  href?: string;
  timeout: number;
  /** False: not announced by the messages' live region (ToastOptions.announce). */
  announce: boolean;
}

export type ToastAction = { type: 'add'; toast: Toast } | { type: 'remove'; id: string };

export function toastsReducer(state: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'add':
      return [action.toast, ...state];
    case 'remove':
      return state.filter((t) => t.id !== action.id);
  }
}

export interface ToastOptions {
  type?: ToastType;
  href?: string;
  timeout?: number;
  /**
   * False for a toast whose words the page already says in its own place (an error shown and
   * heard in the form): shown as any other, but not announced, or a screen reader says it twice.
   */
  announce?: boolean;
}

interface Toaster {
  toasts: readonly Toast[];
  push(text: string, options?: ToastOptions): string;
  remove(id: string): void;
}

const ToastContext = createContext<Toaster | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, dispatch] = useReducer(toastsReducer, []);
  const push = useCallback((text: string, options: ToastOptions = {}) => {
    const id = crypto.randomUUID();
    dispatch({
      type: 'add',
      toast: {
        id,
        text,
        type: options.type ?? 'INFO',
        href: options.href,
        timeout: options.timeout ?? DEFAULT_TOAST_MS,
        announce: options.announce ?? true,
      },
    });
    return id;
  }, []);
  const remove = useCallback((id: string) => dispatch({ type: 'remove', id }), []);
  const value = useMemo(() => ({ toasts, push, remove }), [toasts, push, remove]);
  return <ToastContext value={value}>{children}</ToastContext>;
}

export function useToasts(): Pick<Toaster, 'push' | 'remove'> {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToasts outside ToastProvider');
  return toaster;
}

const LABELS: Record<ToastType, string> = {
  ERROR: 'Error',
  SUCCESS: 'Success',
  INFO: 'Info',
  CHAPTER_UPDATE: 'New chapter',
};

/**
 * One toast: fades out TOAST_FADE_BEFORE_MS before its timeout, then removes itself. While the
 * pointer is over it or focus is in it (someone reading it, or tabbing to its "View." link), its
 * time stands still, and starts again in full once they leave it (WCAG 2.2.1).
 */
export function ToastItem({ toast, onRemove }: { toast: Toast; onRemove(id: string): void }) {
  const [fading, setFading] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (held) {
      setFading(false);
      return;
    }
    const fade = setTimeout(
      () => setFading(true),
      Math.max(0, toast.timeout - TOAST_FADE_BEFORE_MS),
    );
    const done = setTimeout(() => onRemove(toast.id), toast.timeout);
    return () => {
      clearTimeout(fade);
      clearTimeout(done);
    };
  }, [toast.id, toast.timeout, onRemove, held]);

  return (
    <li
      className={`toast toast-${toast.type.toLowerCase()}${fading ? ' is-fading' : ''}`}
      style={{ transitionDuration: `${TOAST_FADE_BEFORE_MS}ms` }}
      data-testid="toast"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <span className="visually-hidden">{LABELS[toast.type]}: </span>
      <span className="toast-text">{toast.text}</span>
      {toast.href && (
        <Link className="toast-link" to={toast.href} onClick={() => onRemove(toast.id)}>
          View.
        </Link>
      )}
      <button
        type="button"
        className="toast-close"
        aria-label="Close notification"
        onClick={() => onRemove(toast.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

export function ToastRegion() {
  const toaster = useContext(ToastContext);
  if (!toaster) return null;
  const item = (toast: Toast) => (
    <ToastItem key={toast.id} toast={toast} onRemove={toaster.remove} />
  );
  const quiet = toaster.toasts.filter((toast) => !toast.announce);
  // Toasts not to be announced are in a list of their own, without aria-live, above the announced
  // ones (they answer what was just done on the page, so they are most likely the newest; an
  // announced toast that arrives while one shows goes below it): each toast is in the page once,
  // with its close button, for a screen reader reading or tabbing through it. One visual list with its words said again
  // in a hidden live region would put every announced toast's words in the page twice, and a
  // list inside the live one with aria-live="off" is not honoured by every screen reader.
  return (
    <section className="toast-region" aria-label="Messages">
      {quiet.length > 0 && <ol className="toast-list">{quiet.map(item)}</ol>}
      {/* The list exists from the start so screen readers announce each toast added to it. */}
      <ol className="toast-list" aria-live="polite" aria-relevant="additions">
        {toaster.toasts.filter((toast) => toast.announce).map(item)}
      </ol>
    </section>
  );
}
