import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import styles from './TopBar.module.css';

export interface CompactMenuProps {
  /** The panel's content; receives `close` so items that act without navigating can shut it. */
  children: (close: () => void) => ReactNode;
}

/**
 * The phone top bar's menu (a disclosure: a button and the panel it shows or hides). Opening moves focus to the
 * panel's first item; Escape closes and gives focus back to the button; choosing an item, a page navigation, a tap
 * outside or tabbing out of the panel closes it. CSS shows it only below the desktop breakpoint.
 */
export function CompactMenu({ children }: CompactMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const panelId = useId();

  const close = useCallback((returnFocus = false) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      close(true);
    };
    const onPointerDown = (event: Event) => {
      if (!rootRef.current?.contains(event.target as Node)) close();
    };
    // single-spa also raises routing events when the first page's apps finish mounting, which a visitor who opened
    // the menu early must not see as a navigation: only a changed address closes the panel.
    const openedAt = window.location.href;
    const onNavigation = () => {
      if (window.location.href !== openedAt) close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('single-spa:routing-event', onNavigation);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('single-spa:routing-event', onNavigation);
    };
  }, [open, close]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // relatedTarget is null when focus goes nowhere in particular (e.g. a tap on the page), which the pointer
    // listener handles; a real focus target outside the menu means the visitor tabbed away.
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) close();
  };

  const onPanelClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as Element).closest('a[href]')) close();
  };

  return (
    <div ref={rootRef} className={styles.compact} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.menuButton}
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          {open ? (
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          ) : (
            <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          )}
        </svg>
      </button>
      <nav ref={panelRef} id={panelId} className={styles.panel} aria-label="Menu" hidden={!open} onClick={onPanelClick}>
        {children(() => close(true))}
      </nav>
    </div>
  );
}
