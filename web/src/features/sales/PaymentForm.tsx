import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { overpaymentMessage, parseMoney, paymentInput } from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';
import { ChoiceField } from '../../ui/ChoiceField.tsx';
import type { Choice } from '../../ui/ChoicePicker.tsx';
import { FormActions, FormField, focusFirstInvalid, invalidProps } from '../../ui/FormField.tsx';
import { AmountDateMethodFields } from './AmountDateMethodFields.tsx';

export type PaymentFormValues = z.input<typeof paymentInput>;
export type PaymentFormOutput = z.output<typeof paymentInput>;

type Props = {
  /** [P4]: only Open sales can take a payment: theirs, as the picker lists them (saleChoiceLabel). */
  openSales: readonly Choice[];
  saleId?: string | undefined;
  /** [P8] The balance of an offered sale, in cents: a payment may not exceed it. */
  balanceOf: (saleId: string) => number | undefined;
  onSubmit: (values: PaymentFormOutput) => void;
  onCancel: () => void;
};

/** [P2] payment form: the date defaults to today where the user is. */
export function PaymentForm({ openSales, saleId = '', balanceOf, onSubmit, onCancel }: Props) {
  const id = useId();
  const schema = useMemo(() => withinBalance(balanceOf), [balanceOf]);
  const f = (name: string) => `${id}-${name}`;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<PaymentFormValues, unknown, PaymentFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { saleId, amount: '', date: localToday(), method: '' as PaymentFormValues['method'], memo: '' },
    // The first field to mend is focused in the order shown (focusFirstInvalid).
    shouldFocusError: false,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit, focusFirstInvalid)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        <FormField label="Sale" htmlFor={f('sale')} error={errors.saleId} required className="sm:col-span-2">
          <ChoiceField
            id={f('sale')}
            name="saleId"
            control={control}
            choices={openSales}
            placeholder="Select a sale"
            noun="sales"
            error={errors.saleId}
          />
        </FormField>
        <AmountDateMethodFields fieldId={f} control={control} register={register} errors={errors} />
        <FormField label="Memo" htmlFor={f('memo')} error={errors.memo} className="sm:col-span-2">
          <textarea id={f('memo')} rows={2} className="textarea w-full" {...register('memo')} {...invalidProps(errors.memo, f('memo'))} />
        </FormField>
      </div>
      <FormActions submitLabel="Record Payment" control={control} onCancel={onCancel} />
    </form>
  );
}

/** [P8] The payment schema, and no more than the chosen sale's balance (the message says it). */
function withinBalance(balanceOf: (saleId: string) => number | undefined) {
  return paymentInput.superRefine((payment, context) => {
    const balance = balanceOf(payment.saleId);
    // Only once the amount itself is valid: otherwise its own message says enough.
    const amount = parseMoney(typeof payment.amount === 'string' ? payment.amount : '');
    if (balance === undefined || !amount.ok) return;
    const message = overpaymentMessage(amount.cents, balance);
    if (message) context.addIssue({ code: 'custom', path: ['amount'], message });
  });
}
