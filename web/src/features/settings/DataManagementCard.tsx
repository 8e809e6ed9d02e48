import { useState } from 'react';
import { useRanchData, useSyncStatus } from '../../data/context.tsx';
import { countUnsavedRecords } from '../../data/unsaved-changes.ts';
import { useToast } from '../../ui/Toast.tsx';
import { clearLocalData } from './clear-local-data.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

export function DataManagementCard({ onSaveAll }: { onSaveAll: () => void }) {
  const toast = useToast();
  const data = useRanchData();
  const { saved } = useSyncStatus();
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  // Counted when the dialog opens; the tracker knows how many local changes wait.
  const [waiting, setWaiting] = useState(0);

  const open = () => {
    setWaiting(saved ? 0 : countUnsavedRecords(data.doc, data.tracker));
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
          <button type="button" className="btn btn-error btn-outline" disabled={clearing} onClick={open}>
            Clear Local Data
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Are you sure you want to clear all local data? This action cannot be undone."
        confirmLabel="Clear Local Data"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void clear()}
      >
        {saved ? (
          <p>Everything on this device is saved on the server.</p>
        ) : (
          <p role="alert" className="alert alert-warning">
            {waiting === 1 ? '1 record has' : `${waiting} records have`} changes that have not reached the server yet.
            Clearing local data would lose them.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
