import type { UseFormRegisterReturn } from 'react-hook-form';
import { CARE_KIND_LABELS, CARE_KINDS } from '../../../../shared/index.ts';
import { FormField, invalidProps, type ShownError } from '../../ui/FormField.tsx';

type CareField = 'kind' | 'doneOn' | 'nextDueOn' | 'notes';

type Props = {
  /** The form's id: the fields' ids start with it. */
  id: string;
  register: (name: CareField) => UseFormRegisterReturn;
  errors: Partial<Record<CareField, ShownError>>;
};

/** [K1] What was done and when: the care, the date done, the next due date and notes (Record Care and Edit Care). */
export function CareFields({ id, register, errors }: Props) {
  const f = (name: string) => `${id}-${name}`;
  return (
    <>
      <FormField label="Care" htmlFor={f('kind')} error={errors.kind} required className="sm:col-span-2">
        <select id={f('kind')} className="select w-full" {...register('kind')} {...invalidProps(errors.kind, f('kind'))}>
          <option value="">Select care</option>
          {CARE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {CARE_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Date Done" htmlFor={f('done')} error={errors.doneOn} required>
        <input id={f('done')} type="date" className="input w-full" {...register('doneOn')} {...invalidProps(errors.doneOn, f('done'))} />
      </FormField>
      <FormField label="Next Due" htmlFor={f('due')} error={errors.nextDueOn}>
        <input
          id={f('due')}
          type="date"
          className="input w-full"
          {...register('nextDueOn')}
          {...invalidProps(errors.nextDueOn, f('due'))}
        />
      </FormField>
      <FormField label="Notes" htmlFor={f('notes')} error={errors.notes} className="sm:col-span-2">
        <textarea id={f('notes')} rows={2} className="textarea w-full" {...register('notes')} {...invalidProps(errors.notes, f('notes'))} />
      </FormField>
    </>
  );
}
