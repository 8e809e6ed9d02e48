import { useState } from 'react';
import type { Role } from '../../../../shared/index.ts';
import { useToast } from '../../ui/Toast.tsx';
import { RoleBadge } from '../users/RoleBadge.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

export function PrivacyCard({ role }: { role: Role | null | undefined }) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="settings-privacy">
      <div className="card-body">
        <h2 id="settings-privacy" className="card-title">
          Privacy & Security
        </h2>
        <div className="flex items-center justify-between gap-4 py-2">
          <span className="font-medium">Current Role</span>
          <RoleBadge role={role} />
        </div>
        <div>
          <button type="button" className="btn btn-outline" onClick={() => setConfirming(true)}>
            Log Out All Devices
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Are you sure you want to log out from all devices?"
        confirmLabel="Log Out All Devices"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          toast({ title: 'Not Implemented', description: 'This feature is not yet implemented.' });
        }}
      />
    </section>
  );
}
