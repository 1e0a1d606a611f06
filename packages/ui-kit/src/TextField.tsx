import clsx from 'clsx';
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import styles from './Field.module.css';

interface FieldTextProps {
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control in red; marks the control aria-invalid. */
  error?: ReactNode;
}

/** Label, control, hint and error, wired together by ids so assistive tech reads them as one field. */
function useFieldIds(id: string | undefined, { hint, error }: Pick<FieldTextProps, 'hint' | 'error'>) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return { controlId, hintId, errorId, describedBy };
}

function FieldMessages({
  hint,
  error,
  hintId,
  errorId,
}: Pick<FieldTextProps, 'hint' | 'error'> & { hintId?: string; errorId?: string }) {
  return (
    <>
      {hint && (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </>
  );
}

export interface TextFieldProps extends FieldTextProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  className?: string;
}

export function TextField({ label, hint, error, id, className, type = 'text', ...inputProps }: TextFieldProps) {
  const ids = useFieldIds(id, { hint, error });
  return (
    <div className={clsx(styles.field, className)}>
      <label htmlFor={ids.controlId} className={styles.label}>
        {label}
      </label>
      <input
        {...inputProps}
        id={ids.controlId}
        type={type}
        className={styles.control}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
      />
      <FieldMessages hint={hint} error={error} hintId={ids.hintId} errorId={ids.errorId} />
    </div>
  );
}

export interface TextAreaProps extends FieldTextProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'children'> {
  className?: string;
}

export function TextArea({ label, hint, error, id, className, ...textareaProps }: TextAreaProps) {
  const ids = useFieldIds(id, { hint, error });
  return (
    <div className={clsx(styles.field, className)}>
      <label htmlFor={ids.controlId} className={styles.label}>
        {label}
      </label>
      <textarea
        {...textareaProps}
        id={ids.controlId}
        className={clsx(styles.control, styles.multiline)}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
      />
      <FieldMessages hint={hint} error={error} hintId={ids.hintId} errorId={ids.errorId} />
    </div>
  );
}
