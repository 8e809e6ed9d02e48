import type { DueRow } from './use-due.ts';

/** `rows`: the first of what is due (due-answer.ts), `total`: how many are (rows.length when all are given). */
type Props = { rows: DueRow[]; total?: number; onOpen: (row: DueRow) => void; limit?: number };

/** [K4] What is due, each line opening the horse (care) or the sale (installment). */
export function DueList({ rows, total = rows.length, onOpen, limit }: Props) {
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  return (
    <ul className="space-y-1" aria-label="Due">
      {shown.map((row) => (
        <li key={row.key}>
          <button type="button" className="w-full rounded-box px-2 py-1 text-left hover:bg-base-200" onClick={() => onOpen(row)}>
            <span className={`block font-medium ${row.overdue ? 'text-error' : ''}`}>{row.title}</span>
            <span className="block text-xs text-base-content/70">{row.detail}</span>
          </button>
        </li>
      ))}
      {total > shown.length && <li className="px-2 text-xs text-base-content/60">and {total - shown.length} more</li>}
    </ul>
  );
}
