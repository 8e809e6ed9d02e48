import type { BaseSyntheticEvent, ReactNode } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';

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

/**
 * A refused submit's focus, for forms with `shouldFocusError: false`: the first field with an
 * error in the order the form shows them. react-hook-form's own focus takes fields in the
 * order they registered, where a field in a component of its own (a Controller) comes after
 * the form's plain ones: the sale form focused Payment Terms while Buyer was empty above it.
 */
export function focusFirstInvalid<Values extends FieldValues>(errors: FieldErrors<Values>, event?: BaseSyntheticEvent): void {
  const form = event?.target;
  if (!(form instanceof HTMLFormElement)) return;
  const first = [...form.elements].find((element) => 'name' in element && typeof element.name === 'string' && element.name in errors);
  if (first instanceof HTMLElement) first.focus();
}

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
