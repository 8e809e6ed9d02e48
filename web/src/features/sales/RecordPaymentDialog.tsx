import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { PaymentForm, type PaymentFormOutput } from './PaymentForm.tsx';
import { useSaleRows } from './sale-rows.ts';

type Props = {
  open: boolean;
  /** Pre-selects this sale (Add Payment on a sale row). */
  saleId?: string | undefined;
  onClose: () => void;
};

export function RecordPaymentDialog({ open, saleId, onClose }: Props) {
  const { writes } = useRanchData();
  const sales = useSaleRows();
  const toast = useToast();

  const record = async (values: PaymentFormOutput) => {
    try {
      await writes.payments.create(values);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to record payment', variant: 'destructive' });
      return;
    }
    onClose();
    toast({ title: 'Success', description: 'Payment recorded successfully', variant: 'success' });
  };

  return (
    <Modal open={open} title="Record Payment" onClose={onClose}>
      {sales ? (
        <PaymentForm openSales={sales.filter((sale) => sale.status === 'Open')} saleId={saleId} onSubmit={record} onCancel={onClose} />
      ) : (
        <span className="loading loading-spinner" role="status" aria-label="Loading" />
      )}
    </Modal>
  );
}
