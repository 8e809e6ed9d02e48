import { useId, useMemo, useState, type ReactNode } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { profileInput, type ErrorIssue, type User } from '../../../../shared/index.ts';
import { displayRole } from '../../lib/user-display.ts';
import { FormField, invalidProps } from '../../ui/FormField.tsx';

export type ProfileFields = z.output<typeof profileInput>;
type ProfileValues = z.input<typeof profileInput>;

type Props = {
  user: User;
  online: boolean;
  /** Resolves true when the server took the change; else the fields it refused (maybe none). */
  onSave: (fields: ProfileFields) => Promise<true | ErrorIssue[]>;
};

const storedValues = (user: User): ProfileValues => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  email: user.email,
  currentPassword: '',
});

export const EMAIL_NEEDS_PASSWORD = 'Enter your current password to change your e-mail.';
const SERVER_FIELDS = ['firstName', 'lastName', 'email', 'currentPassword'] as const;

/** [U15] The profile rules, and the current password whenever the e-mail is not the stored one. */
const profileForm = (storedEmail: string) =>
  profileInput.superRefine((values, ctx) => {
    if (values.email !== storedEmail && !values.currentPassword) {
      ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: EMAIL_NEEDS_PASSWORD });
    }
  });

/** [U7] Profile Details: read-only until Edit Profile; back to read-only on save or Cancel. */
export function ProfileDetailsForm({ user, online, onSave }: Props) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const resolver = useMemo(() => zodResolver(profileForm(user.email)), [user.email]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ProfileValues, unknown, ProfileFields>({ resolver, values: storedValues(user) });

  const submit = handleSubmit(async ({ currentPassword, ...profile }) => {
    // The password goes along only with a new e-mail ([U15]).
    const result = await onSave(profile.email === user.email ? profile : { ...profile, currentPassword });
    if (result === true) {
      setValue('currentPassword', '');
      setEditing(false);
      return;
    }
    for (const issue of result) {
      const field = SERVER_FIELDS.find((name) => name === issue.path);
      if (field) setError(field, { message: issue.message });
    }
  });

  const cancel = () => {
    reset(storedValues(user));
    setEditing(false);
  };

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${id}-title`} className="card-title">
            Profile Details
          </h2>
          {!editing && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setEditing(true)}>
              Edit Profile
            </button>
          )}
        </div>
        <form noValidate onSubmit={submit}>
          <fieldset disabled={!editing} className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
            <FormField label="First Name" htmlFor={`${id}-first`} error={errors.firstName}>
              <input
                id={`${id}-first`}
                className="input w-full"
                autoComplete="given-name"
                {...register('firstName')}
                {...invalidProps(errors.firstName, `${id}-first`)}
              />
            </FormField>
            <FormField label="Last Name" htmlFor={`${id}-last`} error={errors.lastName}>
              <input
                id={`${id}-last`}
                className="input w-full"
                autoComplete="family-name"
                {...register('lastName')}
                {...invalidProps(errors.lastName, `${id}-last`)}
              />
            </FormField>
            <FormField label="Email Address" htmlFor={`${id}-email`} error={errors.email} className="sm:col-span-2">
              <input
                id={`${id}-email`}
                type="email"
                className="input w-full"
                autoComplete="email"
                {...register('email')}
                {...invalidProps(errors.email, `${id}-email`)}
              />
            </FormField>
            {editing && (
              <WhenEmailChanged control={control} storedEmail={user.email}>
                <FormField label="Current Password" htmlFor={`${id}-current`} error={errors.currentPassword} className="sm:col-span-2">
                  <input
                    id={`${id}-current`}
                    type="password"
                    className="input w-full"
                    autoComplete="current-password"
                    aria-describedby={errors.currentPassword ? `${id}-current-error` : `${id}-current-hint`}
                    {...register('currentPassword')}
                    {...invalidProps(errors.currentPassword, `${id}-current`)}
                  />
                  <p id={`${id}-current-hint`} className="label">
                    Your e-mail is how you sign in: confirm the change with your password.
                  </p>
                </FormField>
              </WhenEmailChanged>
            )}
          </fieldset>
          <div className="fieldset py-1">
            <label htmlFor={`${id}-role`} className="fieldset-legend pb-1">
              Role
            </label>
            <input
              id={`${id}-role`}
              className="input w-full"
              value={displayRole(user)}
              disabled
              readOnly
              aria-describedby={`${id}-role-hint`}
            />
            <p id={`${id}-role-hint`} className="label">
              Contact an administrator to change your role
            </p>
          </div>
          {editing && (
            <div className="mt-4 space-y-2">
              {!online && (
                <p role="status" className="alert alert-warning">
                  You are offline — profile changes need a connection.
                </p>
              )}
              <div className="flex gap-2">
                <button type="submit" className="btn btn-primary" disabled={isSubmitting || !online}>
                  {isSubmitting ? 'Saving...' : 'Save Changes'}
                </button>
                <button type="button" className="btn btn-ghost" onClick={cancel} disabled={isSubmitting}>
                  Cancel
                </button>
              </div>
            </div>
          )}
        </form>
      </div>
    </section>
  );
}

/**
 * Its children only while the e-mail typed is not the stored one ([U15]). It watches the
 * e-mail itself (`useWatch`), so a key in a field renders this and not the whole form, as
 * `watch` in the form's render did (the horse form's photo field does the same).
 */
function WhenEmailChanged({
  control,
  storedEmail,
  children,
}: {
  control: Control<ProfileValues, unknown, ProfileFields>;
  storedEmail: string;
  children: ReactNode;
}) {
  const email = useWatch({ control, name: 'email' });
  return (email ?? '').trim().toLowerCase() !== storedEmail ? children : null;
}
