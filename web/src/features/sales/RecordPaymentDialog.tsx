import { useCallback, useMemo } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { PaymentForm, type PaymentFormOutput } from './PaymentForm.tsx';
import { saleChoiceLabel } from './sale-display.ts';
import type { SaleRow } from './sale-rows.ts';

type Props = {
  open: boolean;
  /** The screen's sales (undefined while they are read): one live query for both, not two. */
  sales: SaleRow[] | undefined;
  /** Pre-selects this sale (Add Payment on a sale row). */
  saleId?: string | undefined;
  onClose: () => void;
};

export function RecordPaymentDialog({ open, sales, saleId, onClose }: Props) {
  const { writes } = useRanchData();
  // [P4]: only Open sales can take a payment. Their labels are made as the rows come, while
  // the screen shows, not as the form opens (5,000 on the bench ranch), and kept while the
  // rows stay.
  const openSales = useMemo(
    () => sales?.filter((sale) => sale.status === 'Open').map((sale) => ({ id: sale.id, label: saleChoiceLabel(sale) })),
    [sales],
  );
  const balances = useMemo(() => new Map(sales?.map((sale) => [sale.id, sale.balanceCents])), [sales]);
  const balanceOf = useCallback((id: string) => balances.get(id), [balances]);
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
      {openSales ? (
        <PaymentForm openSales={openSales} saleId={saleId} balanceOf={balanceOf} onSubmit={record} onCancel={onClose} />
      ) : (
        <span className="loading loading-spinner" role="status" aria-label="Loading" />
      )}
    </Modal>
  );
}
