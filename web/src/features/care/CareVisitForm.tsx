import { useId, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { careVisitInput, type CareVisit, type CareVisitInput } from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';
import { FormActions } from '../../ui/FormField.tsx';
import { CareFields } from './CareFields.tsx';

export type HorseChoice = { id: string; name: string };

type Props = {
  horses: HorseChoice[];
  /** Horses ticked when the form opens (Record Care on a horse's details). */
  horseIds?: string[];
  onSubmit: (visit: CareVisit) => void | Promise<void>;
  onCancel: () => void;
};

/** How many unticked horses the list shows at once; the search finds the others. */
const SHOWN = 50;

/**
 * [K2] One care visit for one or several horses: tick the horses (a search narrows a long
 * list), the kind of care, the date done (today by default), the next due date and notes.
 */
export function CareVisitForm({ horses, horseIds = [], onSubmit, onCancel }: Props) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const [search, setSearch] = useState('');
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CareVisitInput, unknown, CareVisit>({
    resolver: zodResolver(careVisitInput),
    defaultValues: { horseIds, kind: '' as CareVisitInput['kind'], doneOn: localToday(), nextDueOn: '', notes: '' },
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        <Controller
          control={control}
          name="horseIds"
          render={({ field }) => (
            <HorsePicker
              id={f('horses')}
              horses={horses}
              chosen={field.value}
              onChange={field.onChange}
              search={search}
              onSearch={setSearch}
              error={errors.horseIds?.message ?? errors.horseIds?.root?.message}
            />
          )}
        />
        <CareFields id={id} register={(name) => register(name)} errors={errors} />
      </div>
      <FormActions submitLabel="Record Care" control={control} onCancel={onCancel} />
    </form>
  );
}

type PickerProps = {
  id: string;
  horses: HorseChoice[];
  chosen: string[];
  onChange: (ids: string[]) => void;
  search: string;
  onSearch: (search: string) => void;
  error: string | undefined;
};

function HorsePicker({ id, horses, chosen, onChange, search, onSearch, error }: PickerProps) {
  const picked = new Set(chosen);
  const needle = search.trim().toLowerCase();
  const shown = useMemo(() => {
    const ticked = new Set(chosen);
    const others = horses.filter((horse) => !ticked.has(horse.id) && horse.name.toLowerCase().includes(needle)).slice(0, SHOWN);
    return [...horses.filter((horse) => ticked.has(horse.id)), ...others];
  }, [horses, chosen, needle]);
  const toggle = (horseId: string) => onChange(picked.has(horseId) ? chosen.filter((one) => one !== horseId) : [...chosen, horseId]);
  return (
    <fieldset className="fieldset py-1 sm:col-span-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="fieldset-legend pb-1">
        Horses
        <span aria-hidden="true" className="text-error">
          {' '}
          *
        </span>
        <span className="ml-2 font-normal text-base-content/60">
          {chosen.length === 1 ? '1 horse chosen' : `${chosen.length} horses chosen`}
        </span>
      </legend>
      <input
        type="search"
        className="input input-sm w-full"
        placeholder="Search horses"
        aria-label="Search horses"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
      <div className="max-h-48 overflow-y-auto rounded-box border border-base-300 p-2">
        {shown.length === 0 && <p className="text-base-content/60">No horses found</p>}
        {shown.map((horse) => (
          <label key={horse.id} className="flex cursor-pointer items-center gap-2 py-0.5">
            <input type="checkbox" className="checkbox checkbox-sm" checked={picked.has(horse.id)} onChange={() => toggle(horse.id)} />
            {horse.name}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="label text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
