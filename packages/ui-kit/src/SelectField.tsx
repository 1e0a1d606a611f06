import clsx from 'clsx';
import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import styles from './Field.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children' | 'onChange'> {
  label: ReactNode;
  options: readonly SelectOption[];
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/** A labelled native select (the platform's own picker on phones, keyboard support everywhere). */
export function SelectField({ label, options, value, onChange, id, className, ...selectProps }: SelectFieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  return (
    <div className={clsx(styles.field, className)}>
      <label htmlFor={controlId} className={styles.label}>
        {label}
      </label>
      <select
        {...selectProps}
        id={controlId}
        className={styles.control}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
