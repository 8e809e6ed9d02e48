import { Suspense, useState } from 'react';
import { DueDetails } from './due-details-lazy.ts';
import { DueList } from './DueList.tsx';
import { useDue, type DueRow } from './use-due.ts';

/** [K4] [D10] The Dashboard's "Due soon": what the bell lists, the first eight, each opening the horse or the sale. */
export function DueSoonCard() {
  const due = useDue(8);
  const [opened, setOpened] = useState<DueRow | null>(null);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="dashboard-due-soon">
      <div className="card-body">
        <h2 id="dashboard-due-soon" className="card-title">
          Due soon
        </h2>
        {due === undefined ? (
          <span className="loading loading-dots loading-sm" role="status" aria-label="Loading" />
        ) : due.total === 0 ? (
          <p className="text-base-content/60">Nothing due in the next 14 days</p>
        ) : (
          <DueList rows={due.rows} total={due.total} onOpen={setOpened} limit={8} />
        )}
      </div>
      {opened && (
        <Suspense fallback={null}>
          <DueDetails due={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </section>
  );
}
