import { ageText, priceText } from './horse-display.ts';
import type { HorseRow } from './use-horse-rows.ts';

const COLUMNS = ['Horse', 'Breed', 'Age', 'Gender', 'Status', 'Price', 'Supplier'] as const;
/** SPEC §9: the table's loading skeleton has 5 rows. */
const SKELETON_ROWS = 5;

export function HorseTable({ rows }: { rows: HorseRow[] | undefined }) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table className="table">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows === undefined ? (
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={i} aria-hidden="true">
                <td colSpan={COLUMNS.length}>
                  <div className="skeleton h-8 w-full" />
                </td>
              </tr>
            ))
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="py-10 text-center text-base-content/60">
                No horses found
              </td>
            </tr>
          ) : (
            rows.map((horse) => <HorseTableRow key={horse.id} horse={horse} />)
          )}
        </tbody>
      </table>
    </div>
  );
}

function HorseTableRow({ horse }: { horse: HorseRow }) {
  return (
    <tr>
      <td>
        <div className="flex items-center gap-3">
          <div className="avatar avatar-placeholder">
            <div className="mask mask-squircle w-11 bg-base-300 text-base-content/60">
              {horse.photoUrl ? <img src={horse.photoUrl} alt={`Photo of ${horse.name}`} /> : <span aria-hidden="true">🐴</span>}
            </div>
          </div>
          <div>
            <div className="font-semibold">{horse.name}</div>
            <div className="text-sm text-base-content/60">{horse.colorName ?? ''}</div>
          </div>
        </div>
      </td>
      <td>{horse.breedName ?? ''}</td>
      <td>{ageText(horse.ageYears, horse.birthdate)}</td>
      <td>{horse.genderName ?? ''}</td>
      <td>{horse.statusName && <span className="badge badge-soft badge-primary">{horse.statusName}</span>}</td>
      <td>{priceText(horse.priceUsd)}</td>
      <td>{horse.ownerId === null ? 'Ranch' : (horse.supplierName ?? '')}</td>
    </tr>
  );
}
