import clsx from 'clsx';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { buttonClassName, type ButtonSize, type ButtonVariant } from './Button';
import styles from './Menu.module.css';

export interface MenuItem {
  label: ReactNode;
  /** Renders the item as a link. */
  href?: string;
  onSelect?: () => void;
  disabled?: boolean;
}

export interface MenuProps {
  /** Content of the button that opens the menu. */
  label: ReactNode;
  items: MenuItem[];
  align?: 'start' | 'end';
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/**
 * A menu button (WAI-ARIA APG pattern): Enter, Space or ArrowDown opens on the first item, ArrowUp on the
 * last; arrows, Home and End move; Escape closes and returns focus to the button; Tab or an outside click closes.
 */
export function Menu({ label, items, align = 'start', variant = 'ghost', size = 'md', className }: MenuProps) {
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<Array<HTMLElement | null>>([]);
  const menuId = useId();
  const triggerId = useId();

  const openAt = useCallback((index: number) => {
    setActiveIndex(index);
    setOpen(true);
  }, []);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }, []);

  // Roving focus: the active item holds DOM focus while the menu is open.
  useEffect(() => {
    if (open) itemRefs.current[activeIndex]?.focus();
  }, [open, activeIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open, close]);

  const lastIndex = items.length - 1;

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (items.length === 0) return;
    if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(lastIndex);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const moves: Record<string, () => number> = {
      ArrowDown: () => (activeIndex + 1) % items.length,
      ArrowUp: () => (activeIndex - 1 + items.length) % items.length,
      Home: () => 0,
      End: () => lastIndex,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setActiveIndex(move());
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  const select = (item: MenuItem) => {
    if (item.disabled) return;
    item.onSelect?.();
    close(true);
  };

  return (
    <div ref={rootRef} className={clsx(styles.root, className)}>
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        className={clsx(buttonClassName({ variant, size }), styles.trigger)}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onTriggerKeyDown}
      >
        {label}
        <span className={clsx(styles.chevron, open && styles.chevronOpen)} aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-labelledby={triggerId}
          className={clsx(styles.menu, align === 'end' ? styles.alignEnd : styles.alignStart)}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item, index) => (
            <li key={index} role="none">
              {renderItem(item, index)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );

  function renderItem(item: MenuItem, index: number) {
    const common = {
      ref: (element: HTMLElement | null) => {
        itemRefs.current[index] = element;
      },
      role: 'menuitem',
      tabIndex: -1,
      className: styles.item,
      'aria-disabled': item.disabled || undefined,
      onMouseEnter: () => setActiveIndex(index),
    };
    if (item.href !== undefined && !item.disabled) {
      return (
        <a {...common} href={item.href} onClick={() => select(item)}>
          {item.label}
        </a>
      );
    }
    return (
      <button {...common} type="button" onClick={() => select(item)}>
        {item.label}
      </button>
    );
  }
}
