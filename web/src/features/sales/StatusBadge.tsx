import type { SaleStandingLabel } from '../../../../shared/index.ts';

const STYLES: Record<string, string> = {
  Paid: 'badge-success font-semibold',
  Open: 'badge-warning',
  'Past due': 'badge-error font-semibold',
};

/** [S13] [S16]: Paid with emphasis, Open amber, Past due red; anything else grey. */
export function StatusBadge({ status }: { status: SaleStandingLabel | string }) {
  return <span className={`badge whitespace-nowrap ${STYLES[status] ?? 'badge-ghost'}`}>{status}</span>;
}
