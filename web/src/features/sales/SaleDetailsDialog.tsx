import { LEDGER_FLAGS, scheduleRows } from '../../../../shared/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useSaleCorrections, type SaleRow } from './sale-rows.ts';
import { centsText, dateText, moneyText, termsText } from './sale-display.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';

/**
 * Beyond the seed (its View Details only logged): the sale's terms, what was paid, the
 * balance, and the installment schedule (shared scheduleRows). An installment counts as
 * covered once the payments reach it in order; [S16] one not covered after its due date is
 * marked late ('Late, N days') and the sale shows what is past due.
 */
type Actions = {
  /** [S17] [P11] Staff and Admins: cancel the sale, refund what is held for the buyer; absent for a Viewer. */
  onCancelSale?: ((sale: SaleRow) => void) | undefined;
  onRefund?: ((sale: SaleRow) => void) | undefined;
};

export function SaleDetailsDialog({ sale, onClose, ...actions }: { sale: SaleRow | null; onClose: () => void } & Actions) {
  return (
    <Modal open={sale !== null} title="Sale Details" onClose={onClose}>
      {sale && <SaleDetails sale={sale} {...actions} />}
    </Modal>
  );
}

const CORRECTION_TEXT = { void: 'Payment voided', cancel: 'Sale cancelled', refund: 'Refund' } as const;

function SaleDetails({ sale, onCancelSale, onRefund }: { sale: SaleRow } & Actions) {
  // What the buyer paid and kept (payments not void, less refunds) covers the installments in order.
  const schedule = sale.status === 'Cancelled' ? [] : scheduleRows(sale, sale.paidCents - sale.refundedCents, sale.today);
  const corrections = useSaleCorrections(sale.id);
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-base-content/60">Horse</dt>
        <dd>{sale.horseName}</dd>
        <dt className="text-base-content/60">Buyer</dt>
        <dd>{sale.buyerName}</dd>
        <dt className="text-base-content/60">Sale Price</dt>
        <dd>{moneyText(sale.salePrice)}</dd>
        <dt className="text-base-content/60">Down Payment</dt>
        <dd>{moneyText(sale.downPayment)}</dd>
        <dt className="text-base-content/60">Terms</dt>
        <dd>{termsText(sale.termsMonths)}</dd>
        <dt className="text-base-content/60">Interest APR</dt>
        <dd>{sale.interestApr === null ? 'None' : `${sale.interestApr}%`}</dd>
        <dt className="text-base-content/60">Status</dt>
        <dd>
          <StatusBadge status={sale.standing} />
        </dd>
        <dt className="text-base-content/60">Paid so far</dt>
        <dd data-testid="paid-so-far">{centsText(sale.paidCents)}</dd>
        <dt className="text-base-content/60">Balance</dt>
        <dd data-testid="balance">{centsText(sale.balanceCents)}</dd>
        {sale.pastDueCents > 0 && (
          <>
            <dt className="text-base-content/60">Past due</dt>
            <dd data-testid="past-due" className="font-semibold text-error">
              {centsText(sale.pastDueCents)}
            </dd>
          </>
        )}
        {sale.refundedCents > 0 && (
          <>
            <dt className="text-base-content/60">Refunded</dt>
            <dd data-testid="refunded">{centsText(sale.refundedCents)}</dd>
          </>
        )}
        {sale.creditCents > 0 && (
          <>
            <dt className="text-base-content/60">Credit</dt>
            <dd data-testid="credit">
              {centsText(sale.creditCents)} <span className="text-base-content/60">paid beyond what is owed, held for the buyer</span>
            </dd>
          </>
        )}
      </dl>
      {sale.flags && sale.flags.length > 0 && (
        // [P13] What the sale broke when it reached the ranch, in the ledger's words, on every device.
        <section aria-labelledby="sale-notes">
          <h3 id="sale-notes" className="mb-2 font-semibold">
            Notes
          </h3>
          <ul className="space-y-1 text-sm">
            {sale.flags.map((flag) => (
              <li key={flag}>{LEDGER_FLAGS[flag]}</li>
            ))}
          </ul>
        </section>
      )}
      {(onCancelSale || onRefund) && (
        <div className="flex flex-wrap gap-2">
          {onRefund && sale.creditCents > 0 && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => onRefund(sale)}>
              Record Refund
            </button>
          )}
          {onCancelSale && sale.status !== 'Cancelled' && (
            <button type="button" className="btn btn-outline btn-error btn-sm" onClick={() => onCancelSale(sale)}>
              Cancel Sale
            </button>
          )}
        </div>
      )}
      {corrections && corrections.length > 0 && (
        <section aria-labelledby="sale-corrections">
          <h3 id="sale-corrections" className="mb-2 font-semibold">
            Corrections
          </h3>
          <ul className="space-y-1 text-sm">
            {corrections.map((correction) => (
              <li key={correction.id}>
                {CORRECTION_TEXT[correction.kind]}
                {correction.kind === 'refund' && correction.amount ? ` ${moneyText(correction.amount)}` : ''}
                {' — '}
                {correction.reason} <span className="text-base-content/60">({dateText(correction.createdAt.slice(0, 10))})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="sale-schedule">
        <h3 id="sale-schedule" className="mb-2 font-semibold">
          Installment Schedule
        </h3>
        {schedule.length === 0 ? (
          <p className="text-sm text-base-content/60">Nothing to pay after the down payment.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="table table-sm" aria-labelledby="sale-schedule">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Due Date</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Paid</th>
                </tr>
              </thead>
              <tbody>
                {schedule.map((installment) => (
                  <tr
                    key={installment.number}
                    className={installment.late ? 'text-error' : undefined}
                    data-late={installment.late || undefined}
                  >
                    <td>{installment.number}</td>
                    <td>{dateText(installment.dueDate)}</td>
                    <td>{centsText(installment.amountCents)}</td>
                    <td>
                      {installment.paid
                        ? 'Yes'
                        : installment.late
                          ? `Late, ${installment.daysLate} ${installment.daysLate === 1 ? 'day' : 'days'}`
                          : 'No'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <RecordHistory collection="sales" id={sale.id} />
    </div>
  );
}
