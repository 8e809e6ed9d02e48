import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { careEntryEdit, type CareEntry, type CareEntryEdit, type CareEntryEditInput } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { FormActions } from '../../ui/FormField.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { CareFields } from './CareFields.tsx';

type Props = { entry: CareEntry | null; onClose: () => void };

/** [K8] Edit Care: one entry's care, dates and notes corrected, offline like every write. */
export function CareEntryDialog({ entry, onClose }: Props) {
  return (
    <Modal open={entry !== null} title="Edit Care" onClose={onClose}>
      {entry && <CareEntryForm entry={entry} onDone={onClose} />}
    </Modal>
  );
}

function CareEntryForm({ entry, onDone }: { entry: CareEntry; onDone: () => void }) {
  const { writes } = useRanchData();
  const toast = useToast();
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CareEntryEditInput, unknown, CareEntryEdit>({
    resolver: zodResolver(careEntryEdit),
    defaultValues: {
      horseId: entry.horseId,
      kind: entry.kind,
      doneOn: entry.doneOn,
      nextDueOn: entry.nextDueOn ?? '',
      notes: entry.notes ?? '',
    },
  });

  const save = async (fields: CareEntryEdit) => {
    try {
      await writes.careEntries.update(entry.id, fields);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to update care entry', variant: 'destructive' });
      return;
    }
    onDone();
    toast({ title: 'Success', description: 'Care entry updated', variant: 'success' });
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)}>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        <CareFields id={id} register={(name) => register(name)} errors={errors} />
      </div>
      <FormActions submitLabel="Save" control={control} onCancel={onDone} />
    </form>
  );
}
