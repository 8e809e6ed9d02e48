import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { HorseForm, type HorseFormOutput } from './HorseForm.tsx';
import { useLookupLists } from './use-horse-rows.ts';

export function AddHorseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { horses } = useRanchData();
  const lookups = useLookupLists();
  const toast = useToast();

  const create = (values: HorseFormOutput) => {
    try {
      horses.create(values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to create horse', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: 'Horse created successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title="Add New Horse" onClose={onClose}>
      {lookups ? (
        <HorseForm lookups={lookups} submitLabel="Create Horse" onSubmit={create} onCancel={onClose} />
      ) : (
        <span className="loading loading-spinner" aria-label="Loading" />
      )}
    </Modal>
  );
}
