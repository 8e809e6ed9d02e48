import type { ReactNode } from 'react';

/** react-hook-form's error for a field; only the message is read. */
export type ShownError = { message?: string | undefined } | undefined;

/** aria attributes tying a field to its error message. */
export function invalidProps(error: ShownError, id: string) {
  return error?.message ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

type FormFieldProps = {
  label: string;
  htmlFor: string;
  error?: ShownError;
  hint?: string;
  required?: boolean;
  className?: string;
  children: ReactNode;
};

/** A label tied to its control, an optional hint and the field's validation message. */
export function FormField({ label, htmlFor, error, hint, required = false, className = '', children }: FormFieldProps) {
  return (
    <div className={`fieldset py-1 ${className}`}>
      <label htmlFor={htmlFor} className="fieldset-legend pb-1">
        {label}
        {required && (
          <span aria-hidden="true" className="text-error">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${htmlFor}-hint`} className="label">
          {hint}
        </p>
      )}
      {error?.message && (
        <p id={`${htmlFor}-error`} className="label text-error">
          {error.message}
        </p>
      )}
    </div>
  );
}
