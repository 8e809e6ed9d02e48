import { useMemo } from 'react';
import type { Horse } from '../../../../shared/index.ts';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { ageText, priceText, supplierText } from './horse-display.ts';
import { lookupName, supplierName, type HorseNames } from './horse-names.ts';
import { HorseAvatar } from '../photos/HorseAvatar.tsx';

/**
 * [H3] Horse Inventory columns. The rows are the horses as read; each cell names what it
 * shows as it renders, so only the rows in view are named (horse-names.ts). New names make
 * new columns, and the rows in view render again with them.
 */
function horseColumns(names: HorseNames): Column<Horse>[] {
  return [
    {
      header: 'Horse',
      key: 'name',
      cell: (horse) => (
        <div className="flex items-center gap-3">
          <HorseAvatar photoUrl={horse.photoUrl} name={horse.name} size="list" />
          <div>
            <div className="font-semibold">{horse.name}</div>
            <div className="text-sm text-base-content/60">{lookupName(names, horse.colorId) ?? ''}</div>
          </div>
        </div>
      ),
    },
    { header: 'Breed', key: 'breedName', cell: (horse) => lookupName(names, horse.breedId) ?? '' },
    { header: 'Age', key: 'ageYears', cell: (horse) => ageText(horse.ageYears, horse.birthdate) },
    { header: 'Gender', key: 'genderName', cell: (horse) => lookupName(names, horse.genderId) ?? '' },
    {
      header: 'Status',
      key: 'statusName',
      cell: (horse) => {
        const status = lookupName(names, horse.statusId);
        return status ? <span className="badge badge-soft badge-primary">{status}</span> : '';
      },
    },
    { header: 'Price', key: 'priceUsd', cell: (horse) => priceText(horse.priceUsd) },
    {
      header: 'Supplier',
      key: 'supplierName',
      cell: (horse) => supplierText({ ownerId: horse.ownerId, supplierName: supplierName(names, horse.ownerId) }),
    },
  ];
}

/** Before the names are read there are no rows either (useHorseRows), only the headers and the skeleton. */
const NO_NAMES: HorseNames = { lookup: new Map(), owners: new Map() };

type HorseTableProps = { rows: Horse[] | undefined; names: HorseNames | undefined; actions: RowAction<Horse>[] };

export function HorseTable({ rows, names, actions }: HorseTableProps) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const columns = useMemo(() => horseColumns(names ?? NO_NAMES), [names]);
  return <DataTable rows={rows} columns={columns} actions={actions} emptyText="No horses found" label="Horses" />;
}
