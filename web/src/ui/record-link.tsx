import { useState } from 'react';
import type { Collection } from '../../../shared/index.ts';

/**
 * [B10] Which record's details a list shows, and how to open or close them. The app's routes
 * give it from the address (/horses/<id>), so a record's details have a link of their own; a
 * screen shown without a router (its tests) keeps it in its own state.
 */
export type RecordLink = { id: string | null; open: (id: string | null) => void };

export function useRecordLink(link: RecordLink | undefined): RecordLink {
  const [id, open] = useState<string | null>(null);
  return link ?? { id, open };
}

/** [B10] Each record's address, for the kinds whose details have one. */
const RECORD_PATHS: Partial<Record<Collection, string>> = {
  horses: '/horses',
  owners: '/owners',
  buyers: '/buyers',
  sales: '/sales',
  payments: '/payments',
  // A lookup item's dialog in Administration, on its tab.
  breeds: '/admin/breeds',
  colors: '/admin/colors',
  genders: '/admin/genders',
  statuses: '/admin/statuses',
};

/** [B10] The address of a record's details ('/horses/<id>'); undefined for a kind without one. */
export function recordHref(collection: Collection, id: string): string | undefined {
  const path = RECORD_PATHS[collection];
  return path && `${path}/${encodeURIComponent(id)}`;
}

/** [B10] A link to a record this device does not have: deleted, or not synced here yet. */
export function MissingRecord({ what, onBack }: { what: string; onBack: () => void }) {
  return (
    <div role="alert" className="alert alert-warning">
      <span>This {what} is not on this device: it may have been deleted, or not reached this device yet.</span>
      <button type="button" className="btn btn-sm" onClick={onBack}>
        Show all
      </button>
    </div>
  );
}

/** [B11] Staff and Admins edit a record from its details; absent for a Viewer. */
export type EditAction = { onEdit?: (() => void) | undefined };

/** [B11] The details' Edit: opens the record's form over them. */
export function EditButton({ onEdit }: EditAction) {
  if (!onEdit) return null;
  return (
    <div className="flex justify-end">
      <button type="button" className="btn btn-sm btn-outline" onClick={onEdit}>
        Edit
      </button>
    </div>
  );
}
