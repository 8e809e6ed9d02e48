import { csvFilename, downloadCsv, toCsv } from '../../ui/export-csv.ts';
import { ageText, supplierText } from './horse-display.ts';
import type { HorseRow } from './horse-names.ts';

/** Export (beyond the seed): the rows the table shows, filters applied, as CSV. */
export function horsesCsv(rows: HorseRow[]): string {
  return toCsv<HorseRow>(
    [
      { header: 'Name', value: (h) => h.name },
      { header: 'Breed', value: (h) => h.breedName },
      { header: 'Color', value: (h) => h.colorName },
      { header: 'Gender', value: (h) => h.genderName },
      { header: 'Status', value: (h) => h.statusName },
      { header: 'Age', value: (h) => ageText(h.ageYears, h.birthdate) },
      { header: 'Birth Date', value: (h) => h.birthdate },
      // Plain decimal so spreadsheets can sum it.
      { header: 'Price (USD)', value: (h) => h.priceUsd },
      { header: 'Supplier', value: supplierText },
      { header: 'Notes', value: (h) => h.notes },
    ],
    rows,
  );
}

export function exportHorses(rows: HorseRow[]): void {
  downloadCsv(csvFilename('horses'), horsesCsv(rows));
}
