import type { BaseSyntheticEvent, ReactNode } from 'react';
import { useFormState, type Control, type FieldErrors, type FieldValues } from 'react-hook-form';
import { useDiscardGuard } from './Modal.tsx';

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

type FormActionsProps<Values extends FieldValues, Output> = {
  submitLabel: string;
  /** Shown on the submit button while the form submits; `submitLabel` unless given. */
  submittingLabel?: string;
  /** The form confirms an action that cannot be undone: its submit is the error colour ([B9]). */
  destructive?: boolean;
  /** The form's: the footer follows its submitting state itself. */
  control: Control<Values, unknown, Output>;
  onCancel: () => void;
};

/**
 * A dialog form's footer: Cancel, and the submit button (disabled while it submits). It
 * reads the form's submitting and changed states itself (`useFormState`; a change tells the
 * dialog to ask before it closes, [B15]), so a submit renders the footer
 * again and not the whole form: read in the form, the horse form's every field and choice
 * would render again in the task of the tap on Create.
 */
export function FormActions<Values extends FieldValues, Output>({
  submitLabel,
  submittingLabel,
  destructive = false,
  control,
  onCancel,
}: FormActionsProps<Values, Output>) {
  const { isSubmitting, isDirty } = useFormState({ control });
  // [B15] In a dialog, closing it with changes asks first.
  const cancel = useDiscardGuard(isDirty, onCancel);
  // The form's last element: in a dialog the bar sticks to the foot of the box (styles.css),
  // and on a phone's sheet the spacer keeps a short form's bar at the foot of the screen.
  return (
    <>
      <div className="modal-spacer" aria-hidden="true" />
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={cancel}>
          Cancel
        </button>
        <button type="submit" className={`btn ${destructive ? 'btn-error' : 'btn-primary'}`} disabled={isSubmitting}>
          {isSubmitting ? (submittingLabel ?? submitLabel) : submitLabel}
        </button>
      </div>
    </>
  );
}
