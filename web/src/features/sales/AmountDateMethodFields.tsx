import type { Control, FieldErrors, FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '../../../../shared/index.ts';
import { FormField, invalidProps, type ShownError } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';

/** A form whose values hold money moved: how much, on what day, and how it was paid. */
type MoneyMoved = FieldValues & { amount: unknown; date: unknown; method: unknown };

type Props<Values extends MoneyMoved> = {
  /** The id of a field of the form, from its name. */
  fieldId: (name: string) => string;
  control: Control<Values>;
  register: UseFormRegister<Values>;
  errors: FieldErrors<Values>;
};

/** Amount, Date and Payment Method, all required: the fields a payment [P2] and a refund [P11] share. */
export function AmountDateMethodFields<Values extends MoneyMoved>({ fieldId, control, register, errors }: Props<Values>) {
  const error = (name: 'amount' | 'date' | 'method') => errors[name] as ShownError;
  const field = (name: 'amount' | 'date' | 'method') => name as Path<Values>;
  return (
    <>
      <FormField label="Amount" htmlFor={fieldId('amount')} error={error('amount')} required>
        <MoneyInput id={fieldId('amount')} name={field('amount')} control={control} error={error('amount')} />
      </FormField>
      <FormField label="Date" htmlFor={fieldId('date')} error={error('date')} required>
        <input
          id={fieldId('date')}
          type="date"
          className="input w-full"
          {...register(field('date'))}
          {...invalidProps(error('date'), fieldId('date'))}
        />
      </FormField>
      <FormField label="Payment Method" htmlFor={fieldId('method')} error={error('method')} required className="sm:col-span-2">
        <select
          id={fieldId('method')}
          className="select w-full"
          {...register(field('method'))}
          {...invalidProps(error('method'), fieldId('method'))}
        >
          <option value="">Select payment method</option>
          {PAYMENT_METHODS.map((method) => (
            <option key={method} value={method}>
              {PAYMENT_METHOD_LABELS[method]}
            </option>
          ))}
        </select>
      </FormField>
    </>
  );
}
