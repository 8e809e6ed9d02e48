import { useState } from 'react';
import type { Role } from '../../../../shared/index.ts';
import { RoleBadge } from '../users/RoleBadge.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useSignOut } from '../sign-out/use-sign-out.tsx';

type Props = {
  role: Role | null | undefined;
  /** Tests pass their own; the app uses `fetch` and the browser's navigation. */
  signOutWays?: Parameters<typeof useSignOut>[0];
};

/**
 * [V2] [V6] The role and 'Log Out All Devices', which is the user menu's 'Sign out
 * everywhere' ([A11]): every session of this user ends, this device is cleared (asking first
 * when it holds changes the server lacks) and the landing screen follows.
 */
export function PrivacyCard({ role, signOutWays }: Props) {
  const [confirming, setConfirming] = useState(false);
  const { signOut, dialog } = useSignOut(signOutWays);

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
          signOut({ everywhere: true });
        }}
      >
        Every phone and computer signed in as you is signed out, this one included, and this device's copy of the ranch is cleared.
      </ConfirmDialog>
      {dialog}
    </section>
  );
}
