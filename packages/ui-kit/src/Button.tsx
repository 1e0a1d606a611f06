import clsx from 'clsx';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import styles from './Button.module.css';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface ButtonLookProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
}

/** The button look for any element, e.g. a router's own link component: `<Link className={buttonClassName()}>`. */
export function buttonClassName({ variant = 'primary', size = 'md', fullWidth = false }: ButtonLookProps = {}): string {
  return clsx(styles.button, styles[variant], styles[size], fullWidth && styles.fullWidth);
}

export interface ButtonProps extends ButtonLookProps, ButtonHTMLAttributes<HTMLButtonElement> {
  /** Shows a spinner and blocks clicks; the label stays so the button keeps its size and name. */
  loading?: boolean;
  children?: ReactNode;
}

export function Button({
  variant,
  size,
  fullWidth,
  loading = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={clsx(buttonClassName({ variant, size, fullWidth }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <Spinner size="sm" label={null} />}
      {children}
    </button>
  );
}

export interface LinkButtonProps extends ButtonLookProps, AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  children?: ReactNode;
}

/** A real link (navigation, downloads) that looks like a button. */
export function LinkButton({ variant, size, fullWidth, className, children, ...rest }: LinkButtonProps) {
  return (
    <a {...rest} className={clsx(buttonClassName({ variant, size, fullWidth }), className)}>
      {children}
    </a>
  );
}
