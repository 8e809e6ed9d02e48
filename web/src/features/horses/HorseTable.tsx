import { horseAge, type Horse } from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';
import { createKeptOrder, moneySortValue, NUMBER_ORDER, type ListSort, type SortValue } from '../../ui/list-sort.ts';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { ageText, priceText, supplierText } from './horse-display.ts';
import { lookupName, supplierName, type HorseNames } from './horse-names.ts';
import { HorseAvatar } from '../photos/HorseAvatar.tsx';
import { statusBadgeClass } from '../../ui/status-tone.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';

/**
 * [H3] Horse Inventory columns. The rows are the horses as read; each cell names what it
 * shows as it renders, so only the rows in view are named (horse-names.ts). New names make
 * new columns, and the rows in view render again with them.
 */
export function horseColumns(names: HorseNames): Column<Horse>[] {
  const today = localToday();
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
          <ConflictMarker collection="horses" id={horse.id} />
        </div>
      ),
      sortValue: (horse) => horse.name,
      // [B16] [T8] The compact row's line one: the name, and a conflict's mark while one is open.
      phoneCell: (horse) => (
        <>
          {horse.name}
          <ConflictMarker collection="horses" id={horse.id} />
        </>
      ),
      phoneLead: (horse) => <HorseAvatar photoUrl={horse.photoUrl} name={horse.name} size="list" />,
    },
    {
      header: 'Breed',
      key: 'breedName',
      cell: (horse) => lookupName(names, horse.breedId) ?? '',
      sortValue: (horse) => lookupName(names, horse.breedId),
    },
    {
      header: 'Age',
      key: 'ageYears',
      cell: (horse) => ageText(horse.ageYears, horse.birthdate),
      sortValue: (horse) => horseAge(horse, today),
      sortNames: ['(youngest first)', '(oldest first)'],
    },
    {
      header: 'Gender',
      key: 'genderName',
      cell: (horse) => lookupName(names, horse.genderId) ?? '',
      sortValue: (horse) => lookupName(names, horse.genderId),
    },
    {
      header: 'Status',
      key: 'statusName',
      cell: (horse) => {
        const status = lookupName(names, horse.statusId);
        return status ? <span className={statusBadgeClass(status)}>{status}</span> : '';
      },
      sortValue: (horse) => lookupName(names, horse.statusId),
      phone: 'status',
    },
    {
      header: 'Price',
      key: 'priceUsd',
      cell: (horse) => priceText(horse.priceUsd),
      sortValue: (horse) => moneySortValue(horse.priceUsd),
      sortNames: NUMBER_ORDER,
    },
    {
      header: 'Supplier',
      key: 'supplierName',
      cell: (horse) => supplierText({ ownerId: horse.ownerId, supplierName: supplierName(names, horse.ownerId) }),
      sortValue: (horse) => supplierText({ ownerId: horse.ownerId, supplierName: supplierName(names, horse.ownerId) }),
      phone: 'none',
    },
  ];
}

/** [B7] The horse list is by name (natural order) until another order is chosen. */
export const HORSES_BY_NAME: ListSort = { key: 'name', direction: 'asc' };

const byName = (horse: Horse) => horse.name;

/**
 * The horses in the order `sort` names (ties by name), by what its column shows with the names
 * of the moment. Kept between calls (list-sort.ts `createKeptOrder`): a horse changed puts
 * only that horse in its place; new names sort the list again.
 */
export function horseOrder(sort: ListSort): (horses: Horse[], names: HorseNames) => Horse[] {
  const order = createKeptOrder<Horse>();
  let column: { names: HorseNames; sortBy: ((horse: Horse) => SortValue) | undefined } | undefined;
  return (horses, names) => {
    if (column?.names !== names) column = { names, sortBy: horseColumns(names).find((each) => each.key === sort.key)?.sortValue };
    return column.sortBy ? order(horses, column.sortBy, sort.direction, byName) : horses;
  };
}

/** Before the names are read there are no rows either (useHorseRows), only the headers and the skeleton. */
export const NO_NAMES: HorseNames = { lookup: new Map(), owners: new Map() };

type HorseTableProps = {
  rows: Horse[] | undefined;
  columns: Column<Horse>[];
  actions: RowAction<Horse>[];
  sort: ListSort;
  onSort: (sort: ListSort) => void;
};

export function HorseTable({ rows, columns, actions, sort, onSort }: HorseTableProps) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  return (
    <DataTable rows={rows} columns={columns} actions={actions} emptyText="No horses found" label="Horses" sort={sort} onSort={onSort} />
  );
}
