import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { afterNextFrame } from '../../lib/after-next-frame.ts';
import { Controller, useForm, useWatch, type Control, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { formatUsd, horseInput, yearsSince, type Horse, type LookupItem } from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';
import { FormActions, FormField, invalidProps, type ShownError } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { PhotoField } from '../photos/PhotoField.tsx';
import type { LookupLists, SupplierOption } from './use-horse-rows.ts';

export type HorseFormValues = z.input<typeof horseInput>;
export type HorseFormOutput = z.output<typeof horseInput>;

const EMPTY: HorseFormValues = {
  name: '',
  breedId: '',
  colorId: '',
  genderId: '',
  statusId: '',
  ownerId: '',
  birthdate: '',
  ageYears: '',
  priceUsd: '',
  photoUrl: '',
  notes: '',
};

/** A stored horse as form values: nulls become empty fields, the price shows as dollars. */
export function horseValues(horse: Horse): HorseFormValues {
  return {
    name: horse.name,
    breedId: horse.breedId,
    colorId: horse.colorId,
    genderId: horse.genderId,
    statusId: horse.statusId ?? '',
    ownerId: horse.ownerId ?? '',
    birthdate: horse.birthdate ?? '',
    ageYears: horse.ageYears === null ? '' : String(horse.ageYears),
    priceUsd: horse.priceUsd ? formatUsd(horse.priceUsd) : '',
    photoUrl: horse.photoUrl ?? '',
    notes: horse.notes ?? '',
  };
}

type HorseFormProps = {
  lookups: LookupLists;
  suppliers: SupplierOption[];
  defaultValues?: HorseFormValues;
  submitLabel: string;
  onSubmit: (values: HorseFormOutput) => void;
  onCancel: () => void;
};

/** The horse fields of [H4] and [H7], validated by the shared schema the server also uses. */
export function HorseForm({ lookups, suppliers, defaultValues: given = EMPTY, submitLabel, onSubmit, onCancel }: HorseFormProps) {
  const id = useId();
  // The values the form opened with, as react-hook-form takes them: the dialog gives a new
  // object on each of its renders (every page of horses read during a start).
  const [defaultValues] = useState(given);
  const fieldId = (name: string) => `${id}-${name}`;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<HorseFormValues, unknown, HorseFormOutput>({ resolver: zodResolver(horseInput), defaultValues });
  const clearAge = useCallback(() => setValue('ageYears', ''), [setValue]);

  // Inactive items are not offered, except the value this horse already has. Kept across
  // renders (a validation or submit renders the form): a new list would make each select
  // render its choices again in the background.
  const offered = useMemo(() => {
    const active = (items: LookupItem[], current: unknown) => items.filter((item) => item.isActive !== false || item.id === current);
    return {
      breeds: active(lookups.breeds, defaultValues.breedId),
      colors: active(lookups.colors, defaultValues.colorId),
      genders: active(lookups.genders, defaultValues.genderId),
      statuses: active(lookups.statuses, defaultValues.statusId),
    };
  }, [lookups, defaultValues]);

  // A select's id, the value it starts with, its error and its registration, from its field.
  const selectProps = (name: 'breedId' | 'colorId' | 'genderId' | 'statusId' | 'ownerId') => ({
    id: fieldId(name),
    current: defaultValues[name],
    error: errors[name],
    register: register(name),
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
        <FormField label="Name" htmlFor={fieldId('name')} error={errors.name} required className="sm:col-span-2">
          <input
            id={fieldId('name')}
            className="input w-full"
            autoComplete="off"
            {...register('name')}
            {...invalidProps(errors.name, fieldId('name'))}
          />
        </FormField>
        <Select label="Breed" items={offered.breeds} required {...selectProps('breedId')} />
        <Select label="Color" items={offered.colors} required {...selectProps('colorId')} />
        <Select label="Gender" items={offered.genders} required {...selectProps('genderId')} />
        <Select label="Status" items={offered.statuses} {...selectProps('statusId')} />
        <Select label="Supplier" items={suppliers} noneLabel="Ranch" {...selectProps('ownerId')} />
        <FormField label="Birth Date" htmlFor={fieldId('birthdate')} error={errors.birthdate}>
          <input
            id={fieldId('birthdate')}
            type="date"
            max={localToday()}
            className="input w-full"
            {...register('birthdate')}
            {...invalidProps(errors.birthdate, fieldId('birthdate'))}
          />
        </FormField>
        <AgeField id={fieldId('ageYears')} control={control} error={errors.ageYears} register={register('ageYears')} clearAge={clearAge} />
        <FormField label="Price" htmlFor={fieldId('priceUsd')} error={errors.priceUsd}>
          {/* [H6]: kept as typed, shown as stored once the field is left. */}
          <MoneyInput id={fieldId('priceUsd')} name="priceUsd" control={control} error={errors.priceUsd} />
        </FormField>
        <Controller
          control={control}
          name="photoUrl"
          render={({ field }) => (
            <NamedPhotoField
              control={control}
              id={fieldId('photo')}
              value={typeof field.value === 'string' ? field.value : ''}
              onChange={field.onChange}
            />
          )}
        />
        <FormField label="Notes" htmlFor={fieldId('notes')} error={errors.notes} className="sm:col-span-2">
          <textarea
            id={fieldId('notes')}
            rows={3}
            className="textarea w-full"
            {...register('notes')}
            {...invalidProps(errors.notes, fieldId('notes'))}
          />
        </FormField>
      </div>
      <FormActions submitLabel={submitLabel} control={control} onCancel={onCancel} />
    </form>
  );
}

/**
 * The photo field, its preview named after the name as typed. It watches the name itself
 * (`useWatch`), so a keystroke in Name renders it again and not the whole form; `watch` in
 * the form's render rendered every select and field again on each key (docs/web.md "Horses").
 */
function NamedPhotoField({
  control,
  ...field
}: { control: Control<HorseFormValues, unknown, HorseFormOutput> } & Omit<Parameters<typeof PhotoField>[0], 'horseName'>) {
  const name = useWatch({ control, name: 'name' });
  return <PhotoField {...field} horseName={String(name ?? '')} />;
}

type SelectProps = {
  label: string;
  id: string;
  items: { id: string; name: string }[];
  /** The value the form starts with: its choice is there from the first render. */
  current: unknown;
  error: ShownError;
  required?: boolean;
  register: UseFormRegisterReturn;
  /** The empty choice of an optional select; 'None' unless given. */
  noneLabel?: string;
};

/**
 * A select of more choices than this makes them only once it is touched or focused; a
 * smaller one two frames after the dialog shows.
 */
const CHOICES_MADE_WHEN_TOUCHED = 30;

/**
 * The form's first frames have each select holding only the choice the form starts with; the
 * rest are made in a render of the select's own: a few lookups two frames after the dialog
 * shows (`useAfterFirstFrame`), a long list (the bench ranch's 200 suppliers) once the
 * select is touched or focused, before its list opens. Made with the form, they are a good
 * part of the task that renders the dialog on a phone (docs/web.md "Dialogs that open at
 * once"); a long list made two frames later is a long task of its own, in the way of a
 * first edit made during a start.
 */
function Select({ label, id, items, current, error, required = false, register, noneLabel = 'None' }: SelectProps) {
  const whenTouched = items.length > CHOICES_MADE_WHEN_TOUCHED;
  const [touched, setTouched] = useState(false);
  const all = useAfterFirstFrame(!whenTouched) || touched;
  // A tap opens a select's list after pointerdown, and keys reach it after focus: the
  // choices are in the page by then (`flushSync`: in this event, not in a later render).
  const touch = () => {
    if (!all) flushSync(() => setTouched(true));
  };
  // The same elements from render to render: React passes over choices it has made before,
  // so a form rendered again (a refused submit's errors) does not make 200 suppliers again.
  const choices = useMemo(
    () =>
      (all ? items : items.filter((item) => item.id === current)).map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      )),
    [all, items, current],
  );
  return (
    <FormField label={label} htmlFor={id} error={error} required={required}>
      <select id={id} className="select w-full" {...register} {...invalidProps(error, id)} onPointerDown={touch} onFocus={touch}>
        <option value="">{required ? `Select ${label.toLowerCase()}` : noneLabel}</option>
        {choices}
      </select>
      {/* [H11] A required list with nothing to choose says where its items come from. */}
      {required && items.length === 0 && <p className="text-sm text-base-content/70">{label}s come from Administration.</p>}
    </FormField>
  );
}

/**
 * False in the first render, true two frames later (when `wanted`), rendered at once in that
 * task (`flushSync`). `Modal` shows the dialog a frame after the first render, a task of its
 * own (mostly restyle during a start); the choices' render comes in a task after it instead
 * of joining it. Not a deferred value: React's background render of the choices is put off
 * by every update of the list read during a start, and a render left to React's scheduler
 * comes long after, behind the start's other tasks.
 */
function useAfterFirstFrame(wanted: boolean): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!wanted) return;
    let mounted = true;
    void afterNextFrame()
      .then(afterNextFrame)
      .then(() => {
        if (mounted) flushSync(() => setAfter(true));
      });
    return () => {
      mounted = false;
    };
  }, [wanted]);
  return after;
}

/**
 * [H10] Age (years): typed when there is no birth date; with one, the age it gives today,
 * read-only ('From the birth date').
 */
function AgeField({
  id,
  control,
  error,
  register,
  clearAge,
}: {
  id: string;
  control: Control<HorseFormValues>;
  error: ShownError;
  register: UseFormRegisterReturn;
  clearAge: () => void;
}) {
  const birthdate = useWatch({ control, name: 'birthdate' });
  const hasBirthdate = typeof birthdate === 'string' && birthdate !== '';
  // With a birth date the age follows it, so no age is stored beside it.
  useEffect(() => {
    if (hasBirthdate) clearAge();
  }, [hasBirthdate, clearAge]);
  if (hasBirthdate) {
    const years = yearsSince(birthdate, localToday());
    return (
      <FormField label="Age (years)" htmlFor={id} error={undefined}>
        <input id={id} readOnly className="input w-full" value={years === null ? '' : String(years)} aria-describedby={`${id}-from`} />
        <p id={`${id}-from`} className="text-xs text-base-content/60">
          From the birth date
        </p>
      </FormField>
    );
  }
  return (
    <FormField label="Age (years)" htmlFor={id} error={error}>
      <input
        id={id}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        className="input w-full"
        {...register}
        {...invalidProps(error, id)}
      />
    </FormField>
  );
}
