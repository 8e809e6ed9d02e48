import { useLiveQuery } from 'dexie-react-hooks';
import {
  addReceivables,
  balanceCents,
  emptyReceivables,
  keptCents,
  pastDueCents,
  saleMoneyBySale,
  saleStandingLabel,
  type Buyer,
  type Horse,
  type Receivables,
  type SaleStandingLabel,
  type StoredSale,
} from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { RanchDb } from '../../data/db.ts';
import { paymentsOfSales } from '../../data/ledger/read-payments.ts';
import { localToday } from '../../lib/local-today.ts';
import { Modal } from '../../ui/Modal.tsx';
import { EditButton, type EditAction } from '../../ui/record-link.tsx';
import { EmailLink, PhoneLink } from '../contacts/contact-links.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';
import { centsText, dateText, moneyText } from '../sales/sale-display.ts';
import { StatusBadge } from '../sales/StatusBadge.tsx';

type Purchase = {
  sale: StoredSale;
  horseName: string;
  standing: SaleStandingLabel | 'Cancelled';
  balanceCents: number;
  pastDueCents: number;
};
export type BuyerAccount = { purchases: Purchase[]; receivables: Receivables };

/** [C10] A buyer's purchases, newest first, and what they owe and what is late on `today` (shared receivables). */
export async function loadBuyerAccount(db: RanchDb, buyerId: string, today: string): Promise<BuyerAccount> {
  const sales = (await db.sales.filter((sale) => sale.buyerId === buyerId).toArray()).sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0,
  );
  const ids = sales.map((sale) => sale.id);
  const [payments, corrections, horses] = await Promise.all([
    paymentsOfSales(db, ids),
    db.corrections.where('saleId').anyOf(ids).toArray(),
    db.horses.bulkGet(sales.map((sale) => sale.horseId)),
  ]);
  // Voids, refunds and cancellations count here as on every other screen ([P10]–[P12], [S17]).
  const money = saleMoneyBySale(payments, corrections);
  const names = new Map(horses.filter((h): h is Horse => h !== undefined).map((h) => [h.id, h.name]));
  const receivables = emptyReceivables();
  const purchases = sales.map((sale) => {
    const horseName = names.get(sale.horseId) ?? 'Unknown horse';
    if (money.get(sale.id)?.cancelled) return { sale, horseName, standing: 'Cancelled' as const, balanceCents: 0, pastDueCents: 0 };
    const kept = keptCents(money.get(sale.id));
    addReceivables(receivables, sale, kept, today);
    return {
      sale,
      horseName,
      standing: saleStandingLabel(sale, kept, today),
      balanceCents: balanceCents(sale, kept),
      pastDueCents: pastDueCents(sale, kept, today),
    };
  });
  return { purchases, receivables };
}

/** [C10] 'Buyer Details': contact, what the buyer owes and what is past due, and their purchases. */
export function BuyerDetailsDialog({ buyer, onClose, onEdit }: { buyer: Buyer | null; onClose: () => void } & EditAction) {
  return (
    <Modal open={buyer !== null} title="Buyer Details" onClose={onClose}>
      <EditButton onEdit={onEdit} />
      {buyer && <BuyerDetails buyer={buyer} />}
    </Modal>
  );
}

function BuyerDetails({ buyer }: { buyer: Buyer }) {
  const { db } = useRanchData();
  const account = useLiveQuery(() => loadBuyerAccount(db, buyer.id, localToday()), [db, buyer.id]);
  return (
    <div className="space-y-4">
      <RecordConflicts collection="buyers" id={buyer.id} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-base-content/60">Name</dt>
        <dd>{contactName(buyer)}</dd>
        <dt className="text-base-content/60">Phone</dt>
        <dd>
          <PhoneLink phone={buyer.phone} />
        </dd>
        <dt className="text-base-content/60">Email</dt>
        <dd>
          <EmailLink email={buyer.email} />
        </dd>
        <dt className="text-base-content/60">Owes</dt>
        <dd data-testid="buyer-owes">{account ? centsText(account.receivables.owedCents) : '…'}</dd>
        <dt className="text-base-content/60">Past due</dt>
        <dd data-testid="buyer-past-due" className={account && account.receivables.lateCents > 0 ? 'font-semibold text-error' : undefined}>
          {account ? centsText(account.receivables.lateCents) : '…'}
        </dd>
      </dl>
      <section aria-labelledby="buyer-purchases">
        <h3 id="buyer-purchases" className="mb-2 font-semibold">
          Purchases
        </h3>
        {account && account.purchases.length === 0 ? (
          <p className="text-sm text-base-content/60">No purchases yet</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="table table-sm" aria-labelledby="buyer-purchases">
              <thead>
                <tr>
                  <th scope="col">Horse</th>
                  <th scope="col">Sale Price</th>
                  <th scope="col">Status</th>
                  <th scope="col">Balance</th>
                  <th scope="col">Past Due</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {account?.purchases.map((purchase) => (
                  <tr key={purchase.sale.id}>
                    <td>{purchase.horseName}</td>
                    <td>{moneyText(purchase.sale.salePrice)}</td>
                    <td>
                      <StatusBadge status={purchase.standing} />
                    </td>
                    <td>{centsText(purchase.balanceCents)}</td>
                    <td className={purchase.pastDueCents > 0 ? 'text-error' : undefined}>{centsText(purchase.pastDueCents)}</td>
                    <td>{dateText(purchase.sale.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
