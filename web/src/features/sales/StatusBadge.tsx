import type { SaleStatus } from '../../../../shared/index.ts';

/** [S13]: Paid with emphasis, Open and anything else each styled differently. */
export function StatusBadge({ status }: { status: SaleStatus | string }) {
  const style = status === 'Paid' ? 'badge-success font-semibold' : status === 'Open' ? 'badge-warning' : 'badge-ghost';
  return <span className={`badge whitespace-nowrap ${style}`}>{status}</span>;
}
