import clsx from 'clsx';
import { useId, type ReactNode } from 'react';
import styles from './ProgressBar.module.css';

export interface ProgressBarProps {
  /** Between 0 and max; leave undefined for an indeterminate bar. Out-of-range values are clamped. */
  value?: number;
  max?: number;
  /** Visible label; when absent, pass ariaLabel so the bar still has a name. */
  label?: ReactNode;
  ariaLabel?: string;
  /** Text shown beside the label and announced as aria-valuetext, e.g. "12 of 40 images". */
  valueText?: string;
  showPercentage?: boolean;
  className?: string;
}

export function ProgressBar({
  value,
  max = 100,
  label,
  ariaLabel,
  valueText,
  showPercentage = false,
  className,
}: ProgressBarProps) {
  const labelId = useId();
  const safeMax = max > 0 ? max : 100;
  const clamped = value === undefined || Number.isNaN(value) ? undefined : Math.min(Math.max(value, 0), safeMax);
  const percent = clamped === undefined ? undefined : Math.round((clamped / safeMax) * 100);
  const shownValue = valueText ?? (showPercentage && percent !== undefined ? `${percent}%` : undefined);

  return (
    <div className={clsx(styles.root, className)}>
      {(label || shownValue) && (
        <div className={styles.labelRow}>
          {label && <span id={labelId}>{label}</span>}
          {shownValue && <span aria-hidden="true">{shownValue}</span>}
        </div>
      )}
      <div
        role="progressbar"
        aria-labelledby={label ? labelId : undefined}
        aria-label={label ? undefined : ariaLabel}
        aria-valuemin={0}
        aria-valuemax={safeMax}
        aria-valuenow={clamped}
        aria-valuetext={valueText}
        className={styles.track}
      >
        <div
          className={clsx(styles.fill, percent === undefined && styles.indeterminate)}
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
