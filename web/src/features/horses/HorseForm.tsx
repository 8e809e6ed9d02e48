import { useId, type ReactNode } from 'react';
import { Controller, useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { formatUsdInput, horseInput, type LookupItem } from '../../../../shared/index.ts';
import type { LookupLists } from './use-horse-rows.ts';

export type HorseFormValues = z.input<typeof horseInput>;
export type HorseFormOutput = z.output<typeof horseInput>;

const EMPTY: HorseFormValues = {
  name: '',
  breedId: '',
  colorId: '',
  genderId: '',
  statusId: '',
  ageYears: '',
  priceUsd: '',
  notes: '',
};

type HorseFormProps = {
  lookups: LookupLists;
  defaultValues?: HorseFormValues;
  submitLabel: string;
  onSubmit: (values: HorseFormOutput) => void;
  onCancel: () => void;
};

/** The horse fields of SPEC §5, validated by the shared schema the server also uses. */
export function HorseForm({ lookups, defaultValues = EMPTY, submitLabel, onSubmit, onCancel }: HorseFormProps) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<HorseFormValues, unknown, HorseFormOutput>({ resolver: zodResolver(horseInput), defaultValues });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
      <Field label="Name" htmlFor={fieldId('name')} error={errors.name} required className="sm:col-span-2">
        <input id={fieldId('name')} className="input w-full" autoComplete="off" {...register('name')} {...invalid(errors.name, fieldId('name'))} />
      </Field>
      <LookupSelect label="Breed" id={fieldId('breedId')} items={lookups.breeds} error={errors.breedId} required register={register('breedId')} />
      <LookupSelect label="Color" id={fieldId('colorId')} items={lookups.colors} error={errors.colorId} required register={register('colorId')} />
      <LookupSelect label="Gender" id={fieldId('genderId')} items={lookups.genders} error={errors.genderId} required register={register('genderId')} />
      <LookupSelect label="Status" id={fieldId('statusId')} items={lookups.statuses} error={errors.statusId} register={register('statusId')} />
      <Field label="Age (years)" htmlFor={fieldId('ageYears')} error={errors.ageYears}>
        <input
          id={fieldId('ageYears')}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          className="input w-full"
          {...register('ageYears')}
          {...invalid(errors.ageYears, fieldId('ageYears'))}
        />
      </Field>
      <Field label="Price" htmlFor={fieldId('priceUsd')} error={errors.priceUsd}>
        <Controller
          control={control}
          name="priceUsd"
          render={({ field }) => (
            <input
              id={fieldId('priceUsd')}
              inputMode="decimal"
              placeholder="$0"
              className="input w-full"
              name={field.name}
              ref={field.ref}
              onBlur={field.onBlur}
              value={typeof field.value === 'string' ? field.value : ''}
              // SPEC §5: shown as dollars while typing, keeping only digits and one dot.
              onChange={(event) => field.onChange(formatUsdInput(event.target.value))}
              {...invalid(errors.priceUsd, fieldId('priceUsd'))}
            />
          )}
        />
      </Field>
      <Field label="Notes" htmlFor={fieldId('notes')} error={errors.notes} className="sm:col-span-2">
        <textarea id={fieldId('notes')} rows={3} className="textarea w-full" {...register('notes')} {...invalid(errors.notes, fieldId('notes'))} />
      </Field>
      <div className="modal-action sm:col-span-2">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** Fields whose schema input is `unknown` get react-hook-form's wider error type; we only read the message. */
type ShownError = { message?: string | undefined } | undefined;

function invalid(error: ShownError, id: string) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

type FieldProps = {
  label: string;
  htmlFor: string;
  error: ShownError;
  required?: boolean;
  className?: string;
  children: ReactNode;
};

function Field({ label, htmlFor, error, required = false, className = '', children }: FieldProps) {
  return (
    <div className={`fieldset py-1 ${className}`}>
      <label htmlFor={htmlFor} className="fieldset-legend pb-1">
        {label}
        {required && <span aria-hidden="true" className="text-error"> *</span>}
      </label>
      {children}
      {error?.message && (
        <p id={`${htmlFor}-error`} className="label text-error">
          {error.message}
        </p>
      )}
    </div>
  );
}

type LookupSelectProps = {
  label: string;
  id: string;
  items: LookupItem[];
  error: ShownError;
  required?: boolean;
  register: UseFormRegisterReturn;
};

function LookupSelect({ label, id, items, error, required = false, register }: LookupSelectProps) {
  return (
    <Field label={label} htmlFor={id} error={error} required={required}>
      <select id={id} className="select w-full" {...register} {...invalid(error, id)}>
        <option value="">{required ? `Select ${label.toLowerCase()}` : 'None'}</option>
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
