import type { Buyer, ContactFields } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { ContactForm, contactValues } from '../contacts/ContactForm.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';

/** 'Add New Buyer' when `editing` is null, else 'Edit Buyer'. */
export function BuyerDialog({ open, editing, onClose }: { open: boolean; editing: Buyer | null; onClose: () => void }) {
  const { writes } = useRanchData();
  const toast = useToast();

  const save = async (values: ContactFields) => {
    try {
      if (editing) await writes.buyers.update(editing.id, values);
      else await writes.buyers.create(values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: editing ? 'Failed to update buyer' : 'Failed to create buyer', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: editing ? 'Buyer updated successfully' : 'Buyer created successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title={editing ? 'Edit Buyer' : 'Add New Buyer'} onClose={onClose}>
      {editing && <RecordConflicts collection="buyers" id={editing.id} className="mb-4" />}
      <ContactForm
        labelStyle="buyer"
        defaultValues={editing ? contactValues(editing) : undefined}
        submitLabel={editing ? 'Update Buyer' : 'Create Buyer'}
        onSubmit={save}
        onCancel={onClose}
      />
      {editing && (
        <div className="mt-6">
          <RecordHistory collection="buyers" id={editing.id} />
        </div>
      )}
    </Modal>
  );
}
