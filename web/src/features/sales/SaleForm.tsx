import { useEffect, useId, useRef } from 'react';
import { useForm, useWatch, type Control, type UseFormSetValue } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { PAYMENT_TERMS, saleInput } from '../../../../shared/index.ts';
import { priceText } from '../horses/horse-display.ts';
import { ChoiceField } from '../../ui/ChoiceField.tsx';
import { FormActions, FormField, focusFirstInvalid, invalidProps, type ShownError } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { termsText as termsLabel } from './sale-display.ts';
import type { SaleChoices } from './sale-rows.ts';

export type SaleFormValues = z.input<typeof saleInput>;
export type SaleFormOutput = z.output<typeof saleInput>;

const EMPTY: SaleFormValues = {
  horseId: '',
  buyerId: '',
  salePrice: '',
  downPayment: '$0',
  termsMonths: '',
  interestApr: '',
  scheduleStartDate: '',
};

type Props = { choices: SaleChoices; onSubmit: (values: SaleFormOutput) => void; onCancel: () => void };

/** [S3] sale form with the shared schema's messages. */
export function SaleForm({ choices, onSubmit, onCancel }: Props) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<SaleFormValues, unknown, SaleFormOutput>({
    resolver: zodResolver(saleInput),
    defaultValues: EMPTY,
    // The first field to mend is focused in the order shown (focusFirstInvalid).
    shouldFocusError: false,
  });
  const horseId = useWatch({ control, name: 'horseId' });
  const horse = choices.horses.find((candidate) => candidate.id === horseId);
  // [S5]: choosing a horse pre-fills the sale price from its listed price.
  const prefillPrice = (id: string) => {
    const chosen = choices.horses.find((candidate) => candidate.id === id);
    if (chosen?.priceUsd) setValue('salePrice', priceText(chosen.priceUsd), { shouldValidate: false });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit, focusFirstInvalid)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        <FormField label="Horse" htmlFor={f('horse')} error={errors.horseId} required>
          <ChoiceField
            id={f('horse')}
            name="horseId"
            control={control}
            choices={choices.horsePicks}
            placeholder="Select a horse"
            noun="horses"
            error={errors.horseId}
            onChosen={prefillPrice}
          />
        </FormField>
        <FormField label="Buyer" htmlFor={f('buyer')} error={errors.buyerId} required>
          <ChoiceField
            id={f('buyer')}
            name="buyerId"
            control={control}
            choices={choices.buyerPicks}
            placeholder="Select a buyer"
            noun="buyers"
            error={errors.buyerId}
          />
        </FormField>
        {horse && (
          <section className="rounded-box border border-base-300 bg-base-200 p-3 sm:col-span-2" aria-labelledby={f('details')}>
            <h3 id={f('details')} className="font-semibold">
              Selected Horse Details
            </h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
              <dt className="text-base-content/60">Name</dt>
              <dd>{horse.name}</dd>
              <dt className="text-base-content/60">Listed Price</dt>
              <dd>{priceText(horse.priceUsd)}</dd>
            </dl>
          </section>
        )}
        <FormField label="Sale Price" htmlFor={f('price')} error={errors.salePrice} required>
          <MoneyInput id={f('price')} name="salePrice" control={control} error={errors.salePrice} />
        </FormField>
        <DownPaymentField id={f('down')} control={control} error={errors.downPayment} setValue={setValue} />
        <FormField label="Payment Terms" htmlFor={f('terms')} error={errors.termsMonths} required>
          <select id={f('terms')} className="select w-full" {...register('termsMonths')} {...invalidProps(errors.termsMonths, f('terms'))}>
            <option value="">Select payment terms</option>
            {PAYMENT_TERMS.map((months) => (
              <option key={months} value={String(months)}>
                {termsLabel(months)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Interest APR (%)" htmlFor={f('apr')} error={errors.interestApr}>
          <input
            id={f('apr')}
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            className="input w-full"
            {...register('interestApr')}
            {...invalidProps(errors.interestApr, f('apr'))}
          />
        </FormField>
        <FormField label="Schedule Start Date" htmlFor={f('start')} error={errors.scheduleStartDate}>
          <input
            id={f('start')}
            type="date"
            className="input w-full"
            {...register('scheduleStartDate')}
            {...invalidProps(errors.scheduleStartDate, f('start'))}
          />
        </FormField>
      </div>
      <FormActions submitLabel="Create Sale" control={control} onCancel={onCancel} />
    </form>
  );
}

/**
 * [S15] Down Payment: typed, or with 'Paid in Full' the sale price itself (the whole price is
 * received at the sale), shown read-only and following the price as it is typed.
 */
function DownPaymentField({
  id,
  control,
  error,
  setValue,
}: {
  id: string;
  control: Control<SaleFormValues>;
  error: ShownError;
  setValue: UseFormSetValue<SaleFormValues>;
}) {
  const terms = useWatch({ control, name: 'termsMonths' });
  const price = useWatch({ control, name: 'salePrice' });
  const paidInFull = String(terms) === '0';
  const wasPaidInFull = useRef(false);
  useEffect(() => {
    if (paidInFull) setValue('downPayment', typeof price === 'string' ? price : '', { shouldValidate: false });
    // Leaving 'Paid in Full', the down payment is typed again from $0.
    else if (wasPaidInFull.current) setValue('downPayment', '$0', { shouldValidate: false });
    wasPaidInFull.current = paidInFull;
  }, [paidInFull, price, setValue]);
  return (
    <FormField label="Down Payment" htmlFor={id} error={error}>
      <MoneyInput
        id={id}
        name="downPayment"
        control={control}
        error={error}
        readOnly={paidInFull}
        describedBy={paidInFull ? `${id}-full` : undefined}
      />
      {paidInFull && (
        <p id={`${id}-full`} className="text-xs text-base-content/60">
          Paid in Full: the whole price is received at the sale
        </p>
      )}
    </FormField>
  );
}
