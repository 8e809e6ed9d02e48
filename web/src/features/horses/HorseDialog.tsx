import { useRanchData } from '../../data/context.tsx';
import { outboxIdOf } from '../../data/photos/photo-ref.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { HorseForm, horseValues, type HorseFormOutput } from './HorseForm.tsx';
import type { Horse } from '../../../../shared/index.ts';
import type { LookupLists, SupplierOption } from './use-horse-rows.ts';

type HorseDialogProps = {
  open: boolean;
  editing: Horse | null;
  onClose: () => void;
  /**
   * The choices, as the screen already reads them for its filters (undefined while they load):
   * a query of its own waited for the read database again, which is busiest during a start
   * (docs/web.md "Dialogs that open at once").
   */
  lookups: LookupLists | undefined;
  suppliers: SupplierOption[] | undefined;
};

/** 'Add New Horse' when `editing` is null, else 'Edit Horse'. */
export function HorseDialog({ open, editing, onClose, lookups, suppliers }: HorseDialogProps) {
  const { writes } = useRanchData();
  const toast = useToast();

  const save = async (values: HorseFormOutput) => {
    try {
      if (editing) await writes.horses.update(editing.id, values);
      else await writes.horses.create(values);
      // The horse now refers to the photo taken in the form: it may go to the server. Awaited
      // so the form's clean-up of unsaved drafts comes after.
      const photo = outboxIdOf(values.photoUrl);
      if (photo) await writes.photos.queue(photo);
    } catch (error) {
      console.error(error);
      // [H7]: the same text when an update fails.
      toast({ title: 'Error', description: 'Failed to create horse', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: editing ? 'Horse updated successfully' : 'Horse created successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title={editing ? 'Edit Horse' : 'Add New Horse'} onClose={onClose}>
      {lookups && suppliers ? (
        <HorseForm
          lookups={lookups}
          suppliers={suppliers}
          defaultValues={editing ? horseValues(editing) : undefined}
          submitLabel={editing ? 'Update Horse' : 'Create Horse'}
          onSubmit={save}
          onCancel={onClose}
        />
      ) : (
        <span className="loading loading-spinner" role="status" aria-label="Loading" />
      )}
    </Modal>
  );
}
