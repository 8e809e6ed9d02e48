import { useMemo } from 'react';
import { SALE_STANDINGS, type SaleStandingLabel } from '../../../../shared/index.ts';
import type { SaleRow } from './sale-rows.ts';

type Props = { rows: SaleRow[] | undefined; value: SaleStandingLabel | ''; onChange: (value: SaleStandingLabel | '') => void };

/** [S16] The Sales tab's filter by status: 'All Statuses', 'Open', 'Past due', 'Paid', each with its count. */
export function StandingFilter({ rows, value, onChange }: Props) {
  // One pass over the sales, again only when they change (not at each keystroke of the search).
  const counts = useMemo(() => {
    if (!rows) return undefined;
    const byStanding = new Map<string, number>();
    for (const row of rows) byStanding.set(row.standing, (byStanding.get(row.standing) ?? 0) + 1);
    return byStanding;
  }, [rows]);
  const count = (standing: SaleStandingLabel) => (counts ? (counts.get(standing) ?? 0) : undefined);
  return (
    <select
      className="select select-sm w-full sm:w-56"
      aria-label="Filter by status"
      value={value}
      onChange={(event) => onChange(event.target.value as SaleStandingLabel | '')}
    >
      <option value="">All Statuses</option>
      {SALE_STANDINGS.map((standing) => {
        const n = count(standing);
        return (
          <option key={standing} value={standing}>
            {n === undefined ? standing : `${standing} (${n})`}
          </option>
        );
      })}
    </select>
  );
}
