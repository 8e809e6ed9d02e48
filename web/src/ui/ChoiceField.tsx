import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { type Choice, ChoicePicker } from './ChoicePicker.tsx';
import { invalidProps, type ShownError } from './FormField.tsx';

type Props<Values extends FieldValues> = {
  id: string;
  name: Path<Values>;
  control: Control<Values>;
  choices: readonly Choice[];
  placeholder: string;
  noun: string;
  error: ShownError;
  /** Called with the id chosen ('' when the choice is taken away), after the form holds it. */
  onChosen?: (id: string) => void;
};

/** A ChoicePicker bound to a react-hook-form field that holds the chosen id. */
export function ChoiceField<Values extends FieldValues>({ id, name, control, choices, placeholder, noun, error, onChosen }: Props<Values>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <ChoicePicker
          id={id}
          name={field.name}
          choices={choices}
          value={typeof field.value === 'string' ? field.value : ''}
          placeholder={placeholder}
          noun={noun}
          onChange={(chosen) => {
            field.onChange(chosen);
            onChosen?.(chosen);
          }}
          onBlur={field.onBlur}
          inputRef={field.ref}
          invalid={invalidProps(error, id)}
        />
      )}
    />
  );
}
