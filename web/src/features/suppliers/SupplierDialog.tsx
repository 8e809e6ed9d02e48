import type { ContactFields } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { ContactForm, contactValues } from '../contacts/ContactForm.tsx';
import type { SupplierRow } from './use-supplier-rows.ts';

/** 'Add New Supplier' when `editing` is null, else 'Edit Supplier' for that supplier. */
export function SupplierDialog({ open, editing, onClose }: { open: boolean; editing: SupplierRow | null; onClose: () => void }) {
  const { writes } = useRanchData();
  const toast = useToast();

  const save = async (values: ContactFields) => {
    try {
      if (editing) await writes.owners.update(editing.id, values);
      else await writes.owners.create(values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: editing ? 'Failed to update supplier' : 'Failed to create owner', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: editing ? 'Supplier updated successfully' : 'Owner created successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title={editing ? 'Edit Supplier' : 'Add New Supplier'} onClose={onClose}>
      <ContactForm
        labelStyle="supplier"
        defaultValues={editing ? contactValues(editing) : undefined}
        submitLabel={editing ? 'Save Changes' : 'Create Supplier'}
        onSubmit={save}
        onCancel={onClose}
      />
    </Modal>
  );
}
