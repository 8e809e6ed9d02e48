import { useLiveQuery } from 'dexie-react-hooks';
import { formatUsd, type Horse } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { localDate } from '../../lib/format-date.ts';
import { Modal } from '../../ui/Modal.tsx';
import { EmailLink, PhoneLink } from '../contacts/contact-links.tsx';
import { contactName } from '../contacts/contact-name.ts';
import type { SupplierRow } from './use-supplier-rows.ts';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';
import { EditButton, type EditAction } from '../../ui/record-link.tsx';

/** View Details (beyond the seed, which only logged): the contact, totals and the horses. */
export function SupplierDetailsDialog({ supplier, onClose, onEdit }: { supplier: SupplierRow | null; onClose: () => void } & EditAction) {
  const { db } = useRanchData();
  const supplierId = supplier?.id ?? null;
  const horses = useLiveQuery(
    async (): Promise<Horse[]> => (supplierId ? db.horses.where('ownerId').equals(supplierId).sortBy('name') : []),
    [db, supplierId],
  );

  return (
    <Modal open={supplier !== null} title="Supplier Details" onClose={onClose}>
      {supplier && (
        <div className="space-y-4">
          <RecordConflicts collection="owners" id={supplier.id} />
          <EditButton onEdit={onEdit} />
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-base-content/60">Name</dt>
            <dd>{contactName(supplier)}</dd>
            <dt className="text-base-content/60">Phone</dt>
            <dd>
              <PhoneLink phone={supplier.phone} />
            </dd>
            <dt className="text-base-content/60">Email</dt>
            <dd>
              <EmailLink email={supplier.email} />
            </dd>
            <dt className="text-base-content/60">Total Horses</dt>
            <dd>{supplier.totalHorses}</dd>
            <dt className="text-base-content/60">Total Value</dt>
            <dd>{formatUsd(supplier.totalValue)}</dd>
            <dt className="text-base-content/60">Joined</dt>
            <dd>{localDate(supplier.createdAt)}</dd>
          </dl>
          <div>
            <h3 className="font-semibold">Horses</h3>
            {horses && horses.length > 0 ? (
              <ul className="list-inside list-disc">
                {horses.map((horse) => (
                  <li key={horse.id}>{horse.name}</li>
                ))}
              </ul>
            ) : (
              <p className="text-base-content/60">No horses found</p>
            )}
          </div>
          <RecordHistory collection="owners" id={supplier.id} />
        </div>
      )}
    </Modal>
  );
}
