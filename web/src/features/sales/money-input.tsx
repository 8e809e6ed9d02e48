import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { formatUsdInput } from '../../../../shared/index.ts';
import { invalidProps, type ShownError } from '../../ui/FormField.tsx';

type MoneyInputProps<Values extends FieldValues> = {
  id: string;
  name: Path<Values>;
  control: Control<Values>;
  error: ShownError;
};

/** [S14] money typing: shown as dollars while typing, keeping only digits and one dot. */
export function MoneyInput<Values extends FieldValues>({ id, name, control, error }: MoneyInputProps<Values>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <input
          id={id}
          inputMode="decimal"
          placeholder="$0"
          className="input w-full"
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(event) => field.onChange(formatUsdInput(event.target.value))}
          {...invalidProps(error, id)}
        />
      )}
    />
  );
}
