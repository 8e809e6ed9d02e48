import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { profileInput, type User } from '../../../../shared/index.ts';
import { displayRole } from '../../lib/user-display.ts';
import { FormField, invalidProps } from '../../ui/FormField.tsx';

export type ProfileFields = z.output<typeof profileInput>;
type ProfileValues = z.input<typeof profileInput>;

type Props = {
  user: User;
  online: boolean;
  /** Resolves true when the server took the change. */
  onSave: (fields: ProfileFields) => Promise<boolean>;
};

const storedValues = (user: User): ProfileValues => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  email: user.email,
});

/** [U7] Profile Details: read-only until Edit Profile; back to read-only on save or Cancel. */
export function ProfileDetailsForm({ user, online, onSave }: Props) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileValues, unknown, ProfileFields>({ resolver: zodResolver(profileInput), values: storedValues(user) });

  const submit = handleSubmit(async (fields) => {
    if (await onSave(fields)) setEditing(false);
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
