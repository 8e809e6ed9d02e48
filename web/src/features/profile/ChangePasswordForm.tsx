import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { ErrorIssue } from '../../../../shared/index.ts';
import { FormField, invalidProps } from '../../ui/FormField.tsx';
import { changePasswordForm, type ChangePasswordFields } from './change-password.ts';

type Values = z.input<typeof changePasswordForm>;
const EMPTY: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

type Props = {
  online: boolean;
  /** True when the server took the new password; else the fields it refused (maybe none). */
  onChange: (fields: ChangePasswordFields) => Promise<true | ErrorIssue[]>;
};

/** [U13] Change Password: current, new and the new again; the user's other devices are signed out. */
export function ChangePasswordForm({ online, onChange }: Props) {
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, ChangePasswordFields>({ resolver: zodResolver(changePasswordForm), defaultValues: EMPTY });

  const submit = handleSubmit(async (fields) => {
    const result = await onChange(fields);
    if (result === true) {
      reset(EMPTY);
      return;
    }
    for (const issue of result) {
      const field = FIELDS.find((name) => name === issue.path);
      if (field) setError(field, { message: issue.message });
    }
  });

  const input = (field: (typeof FIELDS)[number], label: string, autoComplete: string) => (
    <FormField label={label} htmlFor={`${id}-${field}`} error={errors[field]}>
      <input
        id={`${id}-${field}`}
        type="password"
        className="input w-full"
        autoComplete={autoComplete}
        {...register(field)}
        {...invalidProps(errors[field], `${id}-${field}`)}
      />
    </FormField>
  );

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="card-title">
          Change Password
        </h2>
        <p className="text-sm text-base-content/70">Your other devices are signed out; this one stays signed in.</p>
        <form noValidate onSubmit={submit}>
          {input('currentPassword', 'Current Password', 'current-password')}
          {input('newPassword', 'New Password', 'new-password')}
          {input('confirmPassword', 'Confirm New Password', 'new-password')}
          {!online && (
            <p role="status" className="alert alert-warning mt-2">
              You are offline — changing your password needs a connection.
            </p>
          )}
          <button type="submit" className="btn btn-outline mt-4" disabled={isSubmitting || !online}>
            {isSubmitting ? 'Changing...' : 'Change Password'}
          </button>
        </form>
      </div>
    </section>
  );
}
