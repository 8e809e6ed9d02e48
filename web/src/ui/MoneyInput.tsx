import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { formatUsd, parseMoney } from '../../../shared/index.ts';
import { invalidProps, type ShownError } from './FormField.tsx';

type MoneyInputProps<Values extends FieldValues> = {
  id: string;
  name: Path<Values>;
  control: Control<Values>;
  error: ShownError;
  /** Shown, not typed: the value follows another field ([S15]). */
  readOnly?: boolean;
  describedBy?: string | undefined;
};

/**
 * [S14] A money field: it keeps exactly what the person types (nothing stripped or cut while
 * typing); the form's schema reads it with the shared `parseMoney` and says what is wrong.
 * On leaving the field an amount it accepts is shown as it will be stored ("1234.5" →
 * "$1,234.50"), so what is seen is what is recorded.
 */
export function MoneyInput<Values extends FieldValues>({
  id,
  name,
  control,
  error,
  readOnly = false,
  describedBy,
}: MoneyInputProps<Values>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder="$0"
          className="input w-full"
          readOnly={readOnly}
          aria-describedby={describedBy}
          name={field.name}
          ref={field.ref}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={() => {
            const typed = typeof field.value === 'string' ? field.value : '';
            const reading = parseMoney(typed);
            if (typed.trim() !== '' && reading.ok) {
              const shown = formatUsd(reading.value);
              if (shown !== typed) field.onChange(shown);
            }
            field.onBlur();
          }}
          {...invalidProps(error, id)}
        />
      )}
    />
  );
}
