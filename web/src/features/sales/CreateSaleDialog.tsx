import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { SaleForm, type SaleFormOutput } from './SaleForm.tsx';
import { useSaleChoices } from './sale-rows.ts';

export function CreateSaleDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { writes } = useRanchData();
  // Read while the screen is shown, not when the dialog opens: reading a ranch's thousands
  // of horses after the tap kept a phone's form waiting for seconds.
  const choices = useSaleChoices();
  const toast = useToast();

  const create = async (values: SaleFormOutput) => {
    try {
      await writes.sales.create(values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to create sale', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: 'Sale created successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title="Create New Sale" onClose={onClose}>
      {choices ? (
        <SaleForm choices={choices} onSubmit={create} onCancel={onClose} />
      ) : (
        <span className="loading loading-spinner" role="status" aria-label="Loading" />
      )}
    </Modal>
  );
}
