import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { ageText, priceText, supplierText } from './horse-display.ts';
import type { HorseRow } from './use-horse-rows.ts';
import { HorsePhoto } from '../photos/HorsePhoto.tsx';

/** [H3] Horse Inventory columns. */
const COLUMNS: Column<HorseRow>[] = [
  {
    header: 'Horse',
    key: 'name',
    cell: (horse) => (
      <div className="flex items-center gap-3">
        <div className="avatar avatar-placeholder">
          <div className="mask mask-squircle w-11 bg-base-300 text-base-content/60">
            <HorsePhoto photoUrl={horse.photoUrl} name={horse.name} />
          </div>
        </div>
        <div>
          <div className="font-semibold">{horse.name}</div>
          <div className="text-sm text-base-content/60">{horse.colorName ?? ''}</div>
        </div>
      </div>
    ),
  },
  { header: 'Breed', key: 'breedName' },
  { header: 'Age', key: 'ageYears', cell: (horse) => ageText(horse.ageYears, horse.birthdate) },
  { header: 'Gender', key: 'genderName' },
  {
    header: 'Status',
    key: 'statusName',
    cell: (horse) => (horse.statusName ? <span className="badge badge-soft badge-primary">{horse.statusName}</span> : ''),
  },
  { header: 'Price', key: 'priceUsd', cell: (horse) => priceText(horse.priceUsd) },
  { header: 'Supplier', key: 'supplierName', cell: supplierText },
];

export function HorseTable({ rows, actions }: { rows: HorseRow[] | undefined; actions: RowAction<HorseRow>[] }) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  return <DataTable rows={rows} columns={COLUMNS} actions={actions} emptyText="No horses found" label="Horses" />;
}
