import type { ReactNode } from 'react';

/** Fields whose schema input is `unknown` get react-hook-form's wider error type; we only read the message. */
export type ShownError = { message?: string | undefined } | undefined;

/** Marks a control invalid and points it at its message, so screen readers read both. */
export function invalidProps(error: ShownError, id: string) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

type FormFieldProps = {
  label: string;
  htmlFor: string;
  error: ShownError;
  required?: boolean;
  className?: string;
  children: ReactNode;
};

/** A label tied to its control, the control, and the field's validation message. */
export function FormField({ label, htmlFor, error, required = false, className = '', children }: FormFieldProps) {
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
      {error?.message && (
        <p id={`${htmlFor}-error`} className="label text-error">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** A dialog form's footer: Cancel, and the submit button (disabled while it submits). */
export function FormActions({ submitLabel, submitting, onCancel }: { submitLabel: string; submitting: boolean; onCancel: () => void }) {
  return (
    <div className="modal-action sm:col-span-2">
      <button type="button" className="btn btn-ghost" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={submitting}>
        {submitLabel}
      </button>
    </div>
  );
}
