import { Modal } from '../../ui/Modal.tsx';
import type { PaymentRow } from './sale-rows.ts';
import { dateText, methodText, moneyText } from './sale-display.ts';

/**
 * Beyond the seed (its Download Receipt only logged): a receipt that prints on its own
 * (the print styles in styles.css show only `.print-receipt`), so "Save as PDF" in the
 * print dialog downloads it — offline too.
 */
export function PaymentReceiptDialog({ payment, onClose }: { payment: PaymentRow | null; onClose: () => void }) {
  return (
    <Modal open={payment !== null} title="Payment Receipt" onClose={onClose}>
      {payment && (
        <>
          <article className="print-receipt space-y-3" aria-label="Receipt">
            <header>
              <p className="text-lg font-bold">Ranch — Payment Receipt</p>
              <p className="text-sm text-base-content/60">Receipt no. {payment.id}</p>
            </header>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-base-content/60">Date</dt>
              <dd>{dateText(payment.date)}</dd>
              <dt className="text-base-content/60">Received from</dt>
              <dd>{payment.buyerName}</dd>
              <dt className="text-base-content/60">For</dt>
              <dd>Sale of {payment.horseName}</dd>
              <dt className="text-base-content/60">Amount</dt>
              <dd className="font-semibold">{moneyText(payment.amount)}</dd>
              <dt className="text-base-content/60">Method</dt>
              <dd>{methodText(payment.method)}</dd>
              <dt className="text-base-content/60">Memo</dt>
              <dd>{payment.memo || '—'}</dd>
            </dl>
          </article>
          <div className="modal-action">
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              Close
            </button>
            <button type="button" className="btn btn-primary" onClick={() => window.print()}>
              Print Receipt
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
