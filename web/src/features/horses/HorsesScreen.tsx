import { useDeferredValue, useState } from 'react';
import { useSyncStatus } from '../../data/context.tsx';
import { AddHorseDialog } from './AddHorseDialog.tsx';
import { HorseTable } from './HorseTable.tsx';
import { useHorseRows } from './use-horse-rows.ts';

/** SPEC §2 Horse Inventory. Filters, Export, Edit and Delete come in later issues. */
export function HorsesScreen() {
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const rows = useHorseRows(useDeferredValue(search));
  const { readOnly } = useSyncStatus();

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">Horse Inventory</h1>
          <p className="text-base-content/70">Manage your horse database</p>
        </div>
        {!readOnly && (
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            Add Horse
          </button>
        )}
      </div>
      <label className="input w-full max-w-md">
        <span className="sr-only">Search horses</span>
        <input type="search" placeholder="Search horses..." value={search} onChange={(event) => setSearch(event.target.value)} />
      </label>
      <HorseTable rows={rows} />
      <AddHorseDialog open={adding} onClose={() => setAdding(false)} />
    </section>
  );
}
