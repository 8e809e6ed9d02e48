import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CareEntry, Horse } from '../../../../shared/index.ts';
import { useUndoableDelete } from '../../ui/undo-delete.ts';
import { restoreCareEntries } from '../care/restore-care.ts';
import { useRanchData } from '../../data/context.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import type { RowAction } from '../../ui/DataTable.tsx';
import { DownloadIcon, EyeIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { lazyWithPreload } from '../../lib/lazy-with-preload.ts';
import { withWarmForms } from '../../lib/warm-forms.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import { useCanWrite } from '../auth/use-can-write.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { exportHorses } from './export-horses.ts';
import { HorseFilters } from './HorseFilters.tsx';
import { HORSES_BY_NAME, horseColumns, horseOrder, HorseTable, NO_NAMES } from './HorseTable.tsx';
import { ListCount, SortChoice } from '../../ui/ListControls.tsx';
import { loadHorseDialog } from './load-horse-dialog.ts';
import { normaliseNeedle } from './name-search.ts';
import { withNames } from './horse-names.ts';
import { NO_FILTERS, useHorseRows, useLookupLists, useSupplierOptions } from './use-horse-rows.ts';

// The dialogs load when opened: the horse and care forms bring react-hook-form and the zod
// schemas, and evaluating them with the list's route at start was a long task on a phone
// (docs/web.md "A small entry"). The horse form, the screen's main action, loads once the page
// is idle, and a tap that comes first opens it when its module has arrived, in a render of its
// own: suspending on it instead showed the dialog well after the module had arrived during
// a start, and loading it as the screen mounted slowed the first keystrokes (docs/web.md
// "Dialogs that open at once").
// Loaded in steps, each evaluated in a task of its own, its chunks all requested at once
// (load-horse-dialog.ts), whether the page is idle or a tap asks for it first.
// The form's date field loads the locale's data on a renderer's first use, and its first
// show finds the fonts and builds the date field's icon, which a start anew has not done:
// warmed in tasks of their own meanwhile (lib/warm-forms.ts), not in the form's first render
// and show.
const HorseDialog = lazyWithPreload(loadHorseDialog);
// The details show dates in the viewer's locale and the care form has a date field: the
// locale's data and the forms' fonts are warmed alongside their code too.
const HorseDetailsDialog = lazy(() =>
  withWarmForms(import('./HorseDetailsDialog.tsx')).then((module) => ({ default: module.HorseDetailsDialog })),
);
const CareVisitDialog = lazy(() =>
  withWarmForms(import('../care/CareVisitDialog.tsx')).then((module) => ({ default: module.CareVisitDialog })),
);

/** [H1] Horse Inventory. Photos: features/photos (outbox, preview, "on its way"). */
export function HorsesScreen({ link, careLink }: { link?: RecordLink | undefined; careLink?: RecordLink | undefined }) {
  const { db, writes } = useRanchData();
  const [filters, setFilters] = useState(NO_FILTERS);
  // Not deferred: the search is answered in memory, so one render per keystroke updates the
  // box and the list together (use-horse-rows.ts).
  const [sort, setSort] = useState(HORSES_BY_NAME);
  const order = useMemo(() => horseOrder(sort), [sort]);
  const { rows, names, complete, total } = useHorseRows(filters, order);
  const columns = useMemo(() => horseColumns(names ?? NO_NAMES), [names]);
  // A search or filter before the whole list is read shows the matches so far; the line says more are coming.
  const { search, ...chosen } = filters;
  const searching = !complete && (normaliseNeedle(search) !== '' || Object.values(chosen).some((value) => value !== ''));
  const lookups = useLookupLists();
  const suppliers = useSupplierOptions();
  const canWrite = useCanWrite();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: Horse | null } | null>(null);
  // [B10] The horse viewed is named by the address, and read by its id as it is now: an edit
  // made here or elsewhere, a rename of its breed, shows while the details are open.
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  const viewing = useLiveQuery(async () => (viewingId ? ((await db.horses.get(viewingId)) ?? null) : undefined), [db, viewingId]);
  const viewed = useMemo(() => viewing && names && withNames(viewing, names), [viewing, names]);
  const [deleting, setDeleting] = useState<Horse | null>(null);
  const [recordingCare, setRecordingCare] = useState(false);
  useEffect(() => {
    if (!canWrite) return;
    return whenIdle(() => void HorseDialog.preload().catch(() => {})); // Opening it tries again.
  }, [canWrite]);
  // A failed load opens the dialog anyway: its lazy render loads it again, or reports the error.
  const openHorse = useCallback((editing: Horse | null) => {
    const open = () => setDialog({ editing });
    HorseDialog.load().then(open, open);
  }, []);
  const salesOfDeleting = useLiveQuery(
    async () => (deleting ? db.sales.where('horseId').equals(deleting.id).count() : 0),
    [db, deleting?.id],
  );

  const deleted = useUndoableDelete();
  const remove = async (horse: Horse) => {
    setDeleting(null);
    let care: CareEntry[];
    try {
      // [B12] What Undo writes back: the care records go with the horse ([K6]).
      care = (await db.horseCare.get(horse.id))?.entries ?? [];
      await writes.horses.remove(horse.id);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to delete horse', variant: 'destructive' });
      return;
    }
    deleted('Horse', async () => {
      await restoreCareEntries(writes, care, await writes.horses.create(horse));
    });
  };

  // Stable across keystrokes, so the rows in view (memoised in DataTable) do not re-render.
  const actions = useMemo(() => {
    const list: RowAction<Horse>[] = [{ label: 'View Details', icon: <EyeIcon />, onClick: (row) => showDetails(row.id), main: true }];
    if (canWrite) {
      list.push(
        { label: 'Edit', icon: <PencilIcon />, onClick: (row) => openHorse(row) },
        { label: 'Delete', icon: <TrashIcon />, onClick: setDeleting, destructive: true },
      );
    }
    return list;
  }, [canWrite, openHorse, showDetails]);

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold max-md:sr-only">Horse Inventory</h1>
          <p className="text-base-content/70 max-md:hidden">Manage your horse database</p>
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-outline"
            disabled={!complete || !rows || rows.length === 0}
            onClick={() => rows && names && exportHorses(rows.map((horse) => withNames(horse, names)))}
          >
            <DownloadIcon />
            Export
          </button>
          {canWrite && (
            <button type="button" className="btn btn-outline" onClick={() => setRecordingCare(true)}>
              Record Care
            </button>
          )}
          {canWrite && <AddButton label="Add Horse" onClick={() => openHorse(null)} />}
        </div>
      </div>
      <HorseFilters filters={filters} onChange={setFilters} lookups={lookups} suppliers={suppliers} searching={searching} />
      {complete && rows?.length === 0 && filters === NO_FILTERS && <FirstHorseHint canWrite={canWrite} lookups={lookups} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ListCount noun="horses" one="horse" shown={complete ? rows?.length : undefined} total={total} />
        <SortChoice columns={columns} sort={sort} onSort={setSort} />
      </div>
      <HorseTable rows={rows} columns={columns} actions={actions} sort={sort} onSort={setSort} />
      {/* One boundary each: a dialog that loads hides no other. */}
      {dialog !== null && (
        <Suspense fallback={null}>
          <HorseDialog open editing={dialog.editing} onClose={() => setDialog(null)} lookups={lookups} suppliers={suppliers} />
        </Suspense>
      )}
      {viewingId && viewing === null && <MissingRecord what="horse" onBack={() => showDetails(null)} />}
      {viewed && (
        <Suspense fallback={null}>
          <HorseDetailsDialog
            horse={viewed}
            onClose={() => showDetails(null)}
            onEdit={canWrite ? () => viewing && openHorse(viewing) : undefined}
            careLink={careLink}
          />
        </Suspense>
      )}
      {recordingCare && (
        <Suspense fallback={null}>
          <CareVisitDialog open onClose={() => setRecordingCare(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure you want to delete this horse?"
        confirmDisabled={(salesOfDeleting ?? 0) > 0}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting &&
          ((salesOfDeleting ?? 0) > 0 ? (
            <p>{deleting.name} has a sale on record and cannot be deleted.</p>
          ) : (
            <p>{deleting.name} will be removed on every device, with its care records.</p>
          ))}
      </ConfirmDialog>
    </section>
  );
}

/**
 * [H11] A ranch with no horse yet says what to do next: add the first one; and, while a list
 * a horse needs is empty, that its items come from Administration.
 */
function FirstHorseHint({ canWrite, lookups }: { canWrite: boolean; lookups: ReturnType<typeof useLookupLists> }) {
  const missing = lookups ? (['breeds', 'colors', 'genders'] as const).filter((kind) => lookups[kind].length === 0) : [];
  return (
    <div role="status" className="alert alert-info">
      <span>
        {canWrite ? 'Add your first horse with Add Horse.' : 'No horses yet: Admins and Staff add them.'}
        {missing.length > 0 && ` ${listText(missing)} come from Administration: add them there first.`}
      </span>
    </div>
  );
}

function listText(kinds: readonly string[]): string {
  const names = kinds.map((kind, i) => (i === 0 ? kind[0]?.toUpperCase() + kind.slice(1) : kind));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}
