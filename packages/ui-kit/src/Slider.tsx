import clsx from 'clsx';
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import styles from './Field.module.css';

export interface SliderProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'value' | 'defaultValue' | 'onChange' | 'min' | 'max'
> {
  label: ReactNode;
  min: number;
  max: number;
  value: number;
  onChange: (value: number) => void;
  step?: number;
  /** Shows the current value beside the label, formatted by formatValue (e.g. "40 px"). */
  showValue?: boolean;
  formatValue?: (value: number) => string;
  className?: string;
}

export function Slider({
  label,
  min,
  max,
  value,
  onChange,
  step = 1,
  showValue = true,
  formatValue = String,
  id,
  className,
  ...inputProps
}: SliderProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const text = formatValue(value);
  return (
    <div className={clsx(styles.field, className)}>
      <div className={styles.labelRow}>
        <label htmlFor={inputId} className={styles.label}>
          {label}
        </label>
        {showValue && (
          <output htmlFor={inputId} className={styles.value}>
            {text}
          </output>
        )}
      </div>
      <input
        {...inputProps}
        id={inputId}
        type="range"
        className={styles.range}
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={text}
        onChange={(event) => onChange(Number(event.currentTarget.value))}
      />
    </div>
  );
}
