import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { inviteUserInput, ROLES, type ErrorIssue } from '../../../../shared/index.ts';
import { FormActions, FormField, invalidProps } from '../../ui/FormField.tsx';
import { Modal } from '../../ui/Modal.tsx';

type InviteValues = z.input<typeof inviteUserInput>;
export type Invitation = z.output<typeof inviteUserInput>;

type Props = {
  open: boolean;
  onCancel: () => void;
  /** Resolves with the fields the server refused (empty when it made the link or failed otherwise). */
  onInvite: (invitation: Invitation) => Promise<ErrorIssue[]>;
};

/** [U17] Add a person: name, e-mail and role; they set their own password by the link that follows. */
export function InviteDialog({ open, onCancel, onInvite }: Props) {
  return (
    <Modal open={open} title="Add Person" onClose={onCancel} size="sm" sheet>
      {open && <InviteForm onCancel={onCancel} onInvite={onInvite} />}
    </Modal>
  );
}

const FIELDS = ['firstName', 'lastName', 'email', 'role'] as const;

function InviteForm({ onCancel, onInvite }: Omit<Props, 'open'>) {
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<InviteValues, unknown, Invitation>({
    resolver: zodResolver(inviteUserInput),
    defaultValues: { firstName: '', lastName: '', email: '', role: 'Staff' },
  });

  const submit = handleSubmit(async (values) => {
    for (const issue of await onInvite(values)) {
      const field = FIELDS.find((name) => name === issue.path);
      if (field) setError(field, { message: issue.message });
    }
  });

  const text = (name: 'firstName' | 'lastName' | 'email', label: string, type = 'text', autoComplete = 'off') => (
    <FormField label={label} htmlFor={`${id}-${name}`} error={errors[name]} required>
      <input
        id={`${id}-${name}`}
        type={type}
        className="input w-full"
        autoComplete={autoComplete}
        {...register(name)}
        {...invalidProps(errors[name], `${id}-${name}`)}
      />
    </FormField>
  );

  return (
    <form noValidate onSubmit={submit}>
      <p className="text-base-content/80">They get a link to set their own password; it works once, for 7 days.</p>
      {text('firstName', 'First Name')}
      {text('lastName', 'Last Name')}
      {text('email', 'Email', 'email')}
      <FormField label="Role" htmlFor={`${id}-role`} error={errors.role} required>
        <select id={`${id}-role`} className="select w-full" {...register('role')}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </FormField>
      <FormActions submitLabel="Create Link" submittingLabel="Creating..." control={control} onCancel={onCancel} />
    </form>
  );
}
