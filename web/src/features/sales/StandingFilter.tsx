import { SALE_STANDINGS, type SaleStandingLabel } from '../../../../shared/index.ts';
import type { SaleRow } from './sale-rows.ts';

type Props = { rows: SaleRow[] | undefined; value: SaleStandingLabel | ''; onChange: (value: SaleStandingLabel | '') => void };

/** [S16] The Sales tab's filter by status: 'All Statuses', 'Open', 'Past due', 'Paid', each with its count. */
export function StandingFilter({ rows, value, onChange }: Props) {
  const count = (standing: SaleStandingLabel) => rows?.filter((row) => row.standing === standing).length;
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
