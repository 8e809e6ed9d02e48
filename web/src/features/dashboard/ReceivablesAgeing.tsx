import { AGEING_BUCKETS } from '../../../../shared/index.ts';
import { centsText } from '../sales/sale-display.ts';
import type { DashboardMetrics } from './metrics.ts';

/**
 * [D11] 'Receivables Ageing': what open sales still owe, by how late it is (Current, then
 * 1–30, 31–60, 61–90 and 90+ days past the due date), with the total owed.
 */
export function ReceivablesAgeing({ metrics }: { metrics: DashboardMetrics | undefined }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="dashboard-ageing">
      <div className="card-body">
        <h2 id="dashboard-ageing" className="card-title">
          Receivables Ageing
        </h2>
        {!metrics ? (
          <div className="skeleton h-24 w-full" />
        ) : (
          <table className="table table-sm" aria-labelledby="dashboard-ageing">
            <tbody>
              {AGEING_BUCKETS.map(({ key, label }) => (
                <tr key={key} className={key !== 'current' && metrics.ageing[key] > 0 ? 'text-error' : undefined}>
                  <th scope="row" className="font-normal">
                    {label}
                  </th>
                  <td className="text-right tabular-nums">{centsText(metrics.ageing[key])}</td>
                </tr>
              ))}
              <tr className="font-semibold">
                <th scope="row">Total owed</th>
                <td className="text-right tabular-nums">{centsText(metrics.pendingCents)}</td>
              </tr>
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
