import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { passwordResetInput, type ErrorIssue, type User } from '../../../../shared/index.ts';
import { FormActions, FormField, invalidProps } from '../../ui/FormField.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { listName } from './filter-users.ts';

type ResetValues = z.input<typeof passwordResetInput>;

type Props = {
  user: User | null;
  onCancel: () => void;
  /** Resolves with the fields the server refused (empty when it took the password or failed otherwise). */
  onReset: (user: User, password: string) => Promise<ErrorIssue[]>;
};

/** [U12] An Admin sets a new password for another account; its sessions end. */
export function ResetPasswordDialog({ user, onCancel, onReset }: Props) {
  return (
    <Modal open={user !== null} title="Reset Password" onClose={onCancel} size="sm" sheet>
      {user && <ResetPasswordForm key={user.id} user={user} onCancel={onCancel} onReset={onReset} />}
    </Modal>
  );
}

function ResetPasswordForm({ user, onCancel, onReset }: { user: User } & Omit<Props, 'user'>) {
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetValues>({ resolver: zodResolver(passwordResetInput), defaultValues: { password: '' } });

  const submit = handleSubmit(async ({ password }) => {
    for (const issue of await onReset(user, password)) {
      if (issue.path === 'password') setError('password', { message: issue.message });
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <p className="text-base-content/80">
        Set a new password for <span className="font-medium">{listName(user)}</span>{' '}
        <span className="text-sm text-base-content/60">({user.email})</span>. They are signed out on every device and sign in with the new
        one.
      </p>
      <FormField label="New Password" htmlFor={`${id}-password`} error={errors.password} required>
        <input
          id={`${id}-password`}
          type="password"
          className="input w-full"
          autoComplete="new-password"
          {...register('password')}
          {...invalidProps(errors.password, `${id}-password`)}
        />
      </FormField>
      <FormActions submitLabel="Reset Password" submittingLabel="Resetting..." control={control} onCancel={onCancel} />
    </form>
  );
}
