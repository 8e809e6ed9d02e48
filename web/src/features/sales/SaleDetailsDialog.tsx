import { scheduleRows } from '../../../../shared/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import type { SaleRow } from './sale-rows.ts';
import { centsText, dateText, moneyText, termsText } from './sale-display.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';

/**
 * Beyond the seed (its View Details only logged): the sale's terms, what was paid, the
 * balance, and the installment schedule (shared scheduleRows). An installment counts as
 * covered once the payments reach it in order; [S16] one not covered after its due date is
 * marked late ('Late, N days') and the sale shows what is past due.
 */
export function SaleDetailsDialog({ sale, onClose }: { sale: SaleRow | null; onClose: () => void }) {
  return (
    <Modal open={sale !== null} title="Sale Details" onClose={onClose}>
      {sale && <SaleDetails sale={sale} />}
    </Modal>
  );
}

function SaleDetails({ sale }: { sale: SaleRow }) {
  const schedule = scheduleRows(sale, sale.paidCents, sale.today);
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
        {sale.creditCents > 0 && (
          <>
            <dt className="text-base-content/60">Credit</dt>
            <dd data-testid="credit">
              {centsText(sale.creditCents)} <span className="text-base-content/60">paid beyond what is owed, held for the buyer</span>
            </dd>
          </>
        )}
      </dl>
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
