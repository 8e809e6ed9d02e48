import { formatUsd, horseAge } from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';

/**
 * [H3] [H10]: 'N years' or 'Unknown'. With a birth date the age follows it (on the viewer's
 * date), whatever age was also stored; without one, the age entered.
 */
export function ageText(ageYears: number | null, birthdate: string | null, today: Date = new Date()): string {
  const years = horseAge({ birthdate, ageYears }, localToday(today));
  if (years === null) return 'Unknown';
  // [H3] writes it 'N years' for every N, so 1 reads '1 years' as in the original.
  return `${years} years`;
}

/** [H3]: '$' with thousands separators, or 'N/A'. */
export function priceText(priceUsd: string | null): string {
  if (!priceUsd) return 'N/A';
  try {
    return formatUsd(priceUsd);
  } catch {
    return 'N/A';
  }
}

/**
 * [H3]: the supplier's name, or 'Ranch' when none. A supplier deleted on another device
 * while this horse still named it (the repository refuses that locally) shows 'Unknown'.
 */
export function supplierText(horse: { ownerId: string | null; supplierName: string | null }): string {
  if (horse.ownerId === null) return 'Ranch';
  return horse.supplierName ?? 'Unknown';
}
