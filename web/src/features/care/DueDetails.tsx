import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from '../../data/context.tsx';
import { HorseDetailsDialog } from '../horses/HorseDetailsDialog.tsx';
import { loadHorseRow } from '../horses/horse-names.ts';
import { SaleDetailsDialog } from '../sales/SaleDetailsDialog.tsx';
import { loadSaleRows } from '../sales/sale-rows.ts';
import type { DueRow } from './use-due.ts';

/** [K4] The horse or the sale a due line names, in its details dialog (kept current while open). */
export function DueDetails({ due, onClose }: { due: DueRow | null; onClose: () => void }) {
  const { db } = useRanchData();
  const horseId = due?.type === 'care' ? due.horseId : null;
  const saleId = due?.type === 'sale' ? due.saleId : null;
  const horse = useLiveQuery(async () => (horseId ? ((await loadHorseRow(db, horseId)) ?? null) : null), [db, horseId]);
  const sale = useLiveQuery(
    async () => (saleId ? ((await loadSaleRows(db)).find((row) => row.id === saleId) ?? null) : null),
    [db, saleId],
  );
  return (
    <>
      <HorseDetailsDialog horse={horseId ? (horse ?? null) : null} onClose={onClose} />
      <SaleDetailsDialog sale={saleId ? (sale ?? null) : null} onClose={onClose} />
    </>
  );
}
