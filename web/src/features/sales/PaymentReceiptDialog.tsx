import { createPortal } from 'react-dom';
import { balanceCents, receiptNumber, toCents } from '../../../../shared/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { RanchLetterhead } from '../ranch/RanchLetterhead.tsx';
import { type KeptRanchDetails, useRanchDetails } from '../ranch/ranch-details.ts';
import type { PaymentRow } from './sale-rows.ts';
import { centsText, dateText, methodText, moneyText } from './sale-display.ts';

/**
 * [P7] [P9] Beyond the seed (its Download Receipt only logged): a receipt a buyer can keep,
 * with every field and the balance left after this payment. Printing ("Save as PDF" too,
 * offline as well) shows a copy of it placed straight under <body> and nothing else
 * (styles.css, `.print-root`): inside the dialog, the dialog's own box would clip it.
 */
export function PaymentReceiptDialog({
  payment,
  payments,
  onClose,
}: {
  payment: PaymentRow | null;
  /** Every payment, to work out the balance left after this one. */
  payments: readonly PaymentRow[] | undefined;
  onClose: () => void;
}) {
  const remaining = payment ? remainingAfter(payment, payments ?? []) : null;
  const ranch = useRanchDetails();
  return (
    <Modal open={payment !== null} title="Payment Receipt" onClose={onClose}>
      {payment && (
        <>
          <Receipt payment={payment} remaining={remaining} ranch={ranch} />
          {createPortal(
            <div className="print-root" data-theme="ranch" aria-hidden="true">
              <Receipt payment={payment} remaining={remaining} ranch={ranch} />
            </div>,
            document.body,
          )}
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

/**
 * [P9] The sale's balance (interest included) after this payment and every payment of the
 * sale recorded before it (by date, then by when it was made); null without the sale.
 */
export function remainingAfter(payment: PaymentRow, payments: readonly PaymentRow[]): number | null {
  if (!payment.sale) return null;
  const upTo = (other: PaymentRow) => other.date < payment.date || (other.date === payment.date && other.id <= payment.id);
  const paid = payments
    // A void payment ([P10]) counts nowhere, on a receipt neither.
    .filter((other) => other.saleId === payment.saleId && other.id !== payment.id && !other.voided && upTo(other))
    .reduce((sum, other) => sum + toCents(other.amount), toCents(payment.amount));
  return balanceCents(payment.sale, paid);
}

function Receipt({ payment, remaining, ranch }: { payment: PaymentRow; remaining: number | null; ranch: KeptRanchDetails }) {
  return (
    <article className="space-y-3" aria-label="Receipt">
      <header className="space-y-2">
        <RanchLetterhead ranch={ranch} />
        <div>
          <p className="font-semibold">Payment Receipt</p>
          <p className="text-sm text-base-content/60">Receipt no. {receiptNumber(payment.id)}</p>
        </div>
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
        <dt className="text-base-content/60">Remaining balance</dt>
        <dd data-testid="remaining-balance">{remaining === null ? '—' : centsText(remaining)}</dd>
      </dl>
    </article>
  );
}
