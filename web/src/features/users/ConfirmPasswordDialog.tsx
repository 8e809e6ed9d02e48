import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { ErrorIssue } from '../../../../shared/index.ts';
import { FormActions, FormField, invalidProps } from '../../ui/FormField.tsx';
import { Modal } from '../../ui/Modal.tsx';

const confirmForm = z.object({ currentPassword: z.string().min(1, 'Enter your password') });
type Values = z.input<typeof confirmForm>;

type Props = {
  open: boolean;
  onCancel: () => void;
  /** Sends the change again with the password; resolves with the fields the server refused. */
  onConfirm: (password: string) => Promise<ErrorIssue[]>;
};

/**
 * [U16] Asked when the server wants the Admin's password before an account change (their
 * sign-in is more than a few minutes old); the change is sent again with it.
 */
export function ConfirmPasswordDialog({ open, onCancel, onConfirm }: Props) {
  return (
    <Modal open={open} title="Confirm Your Password" onClose={onCancel} size="sm" sheet>
      {open && <ConfirmPasswordForm onCancel={onCancel} onConfirm={onConfirm} />}
    </Modal>
  );
}

function ConfirmPasswordForm({ onCancel, onConfirm }: Omit<Props, 'open'>) {
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(confirmForm), defaultValues: { currentPassword: '' } });

  const submit = handleSubmit(async ({ currentPassword }) => {
    for (const issue of await onConfirm(currentPassword)) {
      if (issue.path === 'currentPassword') setError('currentPassword', { message: issue.message }, { shouldFocus: true });
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <p className="text-base-content/80">You signed in a while ago. Enter your password to confirm this change to an account.</p>
      <FormField label="Your Password" htmlFor={`${id}-password`} error={errors.currentPassword} required>
        <input
          id={`${id}-password`}
          type="password"
          className="input w-full"
          autoComplete="current-password"
          {...register('currentPassword')}
          {...invalidProps(errors.currentPassword, `${id}-password`)}
        />
      </FormField>
      <FormActions submitLabel="Confirm" submittingLabel="Confirming..." control={control} onCancel={onCancel} />
    </form>
  );
}
