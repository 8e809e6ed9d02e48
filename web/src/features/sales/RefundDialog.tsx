import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { parseMoney, refundInput, refundMessage } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { localToday } from '../../lib/local-today.ts';
import { FormActions, FormField, focusFirstInvalid, invalidProps } from '../../ui/FormField.tsx';
import { AmountDateMethodFields } from './AmountDateMethodFields.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { centsText } from './sale-display.ts';
import type { SaleRow } from './sale-rows.ts';

type Values = z.input<typeof refundInput>;
type Output = z.output<typeof refundInput>;

/** [P11] 'Record Refund': money paid back to the buyer, at most what is held for them (the sale's credit). */
export function RefundDialog({ sale, onClose }: { sale: SaleRow | null; onClose: () => void }) {
  return (
    <Modal open={sale !== null} title="Record Refund" onClose={onClose}>
      {sale && <RefundForm sale={sale} onClose={onClose} />}
    </Modal>
  );
}

function RefundForm({ sale, onClose }: { sale: SaleRow; onClose: () => void }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { writes } = useRanchData();
  const toast = useToast();
  const schema = useMemo(
    () =>
      refundInput.superRefine((refund, context) => {
        const amount = parseMoney(typeof refund.amount === 'string' ? refund.amount : '');
        const message = amount.ok ? refundMessage(amount.cents, sale.creditCents) : null;
        if (message) context.addIssue({ code: 'custom', path: ['amount'], message });
      }),
    [sale.creditCents],
  );
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '', date: localToday(), method: '' as Values['method'], reason: '' },
    shouldFocusError: false,
  });
  const record = async (values: Output) => {
    try {
      await writes.corrections.refund(sale.id, values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to record refund', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: 'Refund recorded successfully', variant: 'success' });
  };
  return (
    <form noValidate onSubmit={handleSubmit(record, focusFirstInvalid)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        <p className="text-base-content/80 sm:col-span-2">
          {sale.horseName} — {sale.buyerName}: {centsText(sale.creditCents)} is held for the buyer.
        </p>
        <AmountDateMethodFields fieldId={f} control={control} register={register} errors={errors} />
        <FormField label="Reason" htmlFor={f('reason')} error={errors.reason} required className="sm:col-span-2">
          <textarea
            id={f('reason')}
            rows={2}
            className="textarea w-full"
            {...register('reason')}
            {...invalidProps(errors.reason, f('reason'))}
          />
        </FormField>
      </div>
      <FormActions submitLabel="Record Refund" control={control} onCancel={onClose} />
    </form>
  );
}
