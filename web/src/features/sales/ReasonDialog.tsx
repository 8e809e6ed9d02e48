import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { cancelInput } from '../../../../shared/index.ts';
import { FormActions, FormField, focusFirstInvalid, invalidProps } from '../../ui/FormField.tsx';
import { Modal } from '../../ui/Modal.tsx';

type Props = {
  open: boolean;
  title: string;
  /** What happens, said before the reason is asked. */
  children: ReactNode;
  submitLabel: string;
  onSubmit: (reason: string) => Promise<void>;
  onClose: () => void;
};

/**
 * [P10] [S17] A correction's reason: asked in a dialog of its own before a payment is voided or
 * a sale cancelled ('Reason is required'); nothing is recorded until it is given. Both cannot be
 * undone, so this is their confirmation and its submit is the error colour ([B9]).
 */
export function ReasonDialog({ open, title, children, submitLabel, onSubmit, onClose }: Props) {
  return (
    <Modal open={open} title={title} onClose={onClose} size="sm" sheet>
      <ReasonForm submitLabel={submitLabel} onSubmit={onSubmit} onClose={onClose}>
        {children}
      </ReasonForm>
    </Modal>
  );
}

function ReasonForm({ children, submitLabel, onSubmit, onClose }: Omit<Props, 'open' | 'title'>) {
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof cancelInput>, unknown, z.output<typeof cancelInput>>({
    resolver: zodResolver(cancelInput),
    defaultValues: { reason: '' },
    shouldFocusError: false,
  });
  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.reason ?? ''), focusFirstInvalid)}>
      <div className="text-base-content/80">{children}</div>
      <FormField label="Reason" htmlFor={`${id}-reason`} error={errors.reason} required>
        <textarea
          id={`${id}-reason`}
          rows={2}
          className="textarea w-full"
          {...register('reason')}
          {...invalidProps(errors.reason, `${id}-reason`)}
        />
      </FormField>
      <FormActions submitLabel={submitLabel} control={control} onCancel={onClose} destructive />
    </form>
  );
}
