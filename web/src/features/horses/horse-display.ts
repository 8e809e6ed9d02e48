import { formatUsd } from '../../../../shared/index.ts';

/** [H3]: 'N years' or 'Unknown'; the birth date stands in when no age was entered. */
export function ageText(ageYears: number | null, birthdate: string | null, today: Date = new Date()): string {
  const years = ageYears ?? yearsSince(birthdate, today);
  if (years === null) return 'Unknown';
  // [H3] writes it 'N years' for every N, so 1 reads '1 years' as in the original.
  return `${years} years`;
}

function yearsSince(isoDate: string | null, today: Date): number | null {
  if (!isoDate) return null;
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return null;
  let years = today.getFullYear() - year;
  if (today.getMonth() + 1 < month || (today.getMonth() + 1 === month && today.getDate() < day)) years -= 1;
  return years >= 0 ? years : null;
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
