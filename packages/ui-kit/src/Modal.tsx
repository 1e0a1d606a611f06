import clsx from 'clsx';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button';
import { focusableWithin } from './focus';
import styles from './Modal.module.css';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** Names the dialog (aria-labelledby). */
  title: ReactNode;
  children?: ReactNode;
  /** Actions shown under the body, e.g. Cancel / Save buttons. */
  footer?: ReactNode;
  /** When false, Escape, the backdrop and the close button do nothing (e.g. while saving). */
  dismissible?: boolean;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/**
 * A modal dialog: focus moves inside on open, Tab is trapped, Escape and a backdrop click close it
 * (unless not dismissible), and focus returns to where it was when the dialog closes.
 */
export function Modal({ open, ...props }: ModalProps) {
  if (!open || typeof document === 'undefined') return null;
  return createPortal(<OpenModal {...props} />, document.body);
}

/** The open dialogs, innermost last: a key pressed while focus is nowhere belongs to the innermost one. */
const openDialogs: HTMLElement[] = [];

function OpenModal({
  onClose,
  title,
  children,
  footer,
  dismissible = true,
  size = 'md',
  className,
}: Omit<ModalProps, 'open'>) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    if (dialog) (focusableWithin(dialog).find((el) => !el.dataset.modalClose) ?? dialog).focus();
    // The page behind must not scroll under the dialog.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previouslyFocused?.focus?.();
    };
  }, []);

  // A focused button that becomes disabled (a form while it submits, Next at the last image) drops focus to the
  // page, out of reach of the dialog's own key handling: Escape still closes the innermost dialog, and focus returns
  // to it.
  const latest = useRef({ onClose, dismissible });
  latest.current = { onClose, dismissible };
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    openDialogs.push(dialog);
    const onStrayKey = (event: globalThis.KeyboardEvent) => {
      const active = document.activeElement;
      if (openDialogs[openDialogs.length - 1] !== dialog || (active && active !== document.body)) return;
      dialog.focus();
      if (event.key === 'Escape' && latest.current.dismissible) latest.current.onClose();
    };
    document.addEventListener('keydown', onStrayKey);
    return () => {
      document.removeEventListener('keydown', onStrayKey);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissible) onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = focusableWithin(dialogRef.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className={styles.backdrop}
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        // Only a press on the backdrop itself closes: a drag that starts inside the dialog must not.
        if (event.target === event.currentTarget && dismissible) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={clsx(styles.dialog, styles[size], className)}
        onKeyDown={onKeyDown}
      >
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <Button
            variant="ghost"
            size="sm"
            aria-label="Close"
            data-modal-close="true"
            disabled={!dismissible}
            onClick={onClose}
          >
            ×
          </Button>
        </div>
        <div className={styles.body}>{children}</div>
        {footer && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>
  );
}
