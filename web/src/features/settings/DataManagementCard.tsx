import { useState, useSyncExternalStore } from 'react';
import { useRanchData, useSyncField } from '../../data/context.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { clearLocalData } from './clear-local-data.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

export function DataManagementCard({ onSaveAll }: { onSaveAll: () => void }) {
  const toast = useToast();
  const data = useRanchData();
  const saved = useSyncField('saved');
  const { invalid } = useSyncExternalStore(data.projection.invalidCount.subscribe, data.projection.invalidCount.get);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  // Counted when the dialog opens: records the server has not acknowledged (the tracker)
  // and photos still in the outbox.
  const [waiting, setWaiting] = useState({ records: 0, photos: 0 });
  const nothingWaiting = waiting.records === 0 && waiting.photos === 0;

  const open = async () => {
    const photos = await data.photos.countWaiting().catch(() => 0);
    const records = saved ? 0 : Math.max(1, await data.countUnsaved().catch(() => 1));
    setWaiting({ records, photos });
    setConfirming(true);
  };

  const clear = async () => {
    setConfirming(false);
    setClearing(true);
    try {
      await clearLocalData(data);
      toast({ title: 'Data Cleared', description: 'All local data has been cleared. Please refresh the page.' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to clear local data', variant: 'destructive' });
    } finally {
      setClearing(false);
    }
  };

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="settings-data">
      <div className="card-body">
        <h2 id="settings-data" className="card-title">
          Data Management
        </h2>
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              onSaveAll();
              toast({ title: 'Settings Saved', description: 'Your preferences have been saved successfully.', variant: 'success' });
            }}
          >
            Save All Settings
          </button>
          <button type="button" className="btn btn-error btn-outline" disabled={clearing} onClick={() => void open()}>
            Clear Local Data
          </button>
        </div>
        {/* Entities another app wrote to the synced document that are not valid records (projection.ts). */}
        {invalid > 0 && <p className="text-sm opacity-70">{notShownText(invalid)}</p>}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Are you sure you want to clear all local data? This action cannot be undone."
        confirmLabel="Clear Local Data"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void clear()}
      >
        {nothingWaiting ? (
          <p>Everything on this device is saved on the server.</p>
        ) : (
          <p role="alert" className="alert alert-warning">
            {waitingText(waiting)} not reached the server yet. Clearing local data would lose them.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

/** "2 records with changes and 1 photo have", for the warning. */
export function waitingText({ records, photos }: { records: number; photos: number }): string {
  const parts: string[] = [];
  if (records > 0) parts.push(records === 1 ? '1 record with changes' : `${records} records with changes`);
  if (photos > 0) parts.push(photos === 1 ? '1 photo' : `${photos} photos`);
  return `${parts.join(' and ')} ${records + photos === 1 ? 'has' : 'have'}`;
}

/** "3 records from other apps could not be shown", under the Data Management buttons. */
export function notShownText(count: number): string {
  return `${count === 1 ? '1 record' : `${count} records`} from other apps could not be shown`;
}
