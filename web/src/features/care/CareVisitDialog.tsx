import { useLiveQuery } from 'dexie-react-hooks';
import { publicName, type CareVisit } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCurrentUser } from '../auth/AuthProvider.tsx';
import { CareVisitForm } from './CareVisitForm.tsx';
import { displayRole } from '../../lib/user-display.ts';
import { readByNameInPages } from '../horses/read-in-pages.ts';
import { sortRows } from '../../ui/list-sort.ts';

type Props = { open: boolean; horseIds?: string[]; onClose: () => void };

/** [K2] Record Care: one visit for the horses ticked, recorded by the signed-in person, offline like every write. */
export function CareVisitDialog({ open, horseIds, onClose }: Props) {
  const { db, writes } = useRanchData();
  const user = useCurrentUser();
  const toast = useToast();
  // [B7] The picker lists horses in natural order ("Apollo 104" before "Apollo 1004").
  const horses = useLiveQuery(
    async () => (open ? sortRows(await readByNameInPages(db), (horse) => horse.name, 'asc').map(({ id, name }) => ({ id, name })) : []),
    [db, open],
  );

  const record = async (visit: CareVisit) => {
    const name = publicName({ ...user, role: displayRole(user) });
    try {
      await writes.careEntries.create(visit, { userId: user.id, name });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to record care', variant: 'destructive' });
      return;
    }
    onClose();
    const count = visit.horseIds.length;
    toast({
      title: 'Success',
      description: count === 1 ? 'Care recorded for 1 horse' : `Care recorded for ${count} horses`,
      variant: 'success',
    });
  };

  return (
    <Modal open={open} title="Record Care" onClose={onClose}>
      {horses ? (
        <CareVisitForm horses={horses} horseIds={horseIds} onSubmit={record} onCancel={onClose} />
      ) : (
        <span className="loading loading-spinner" role="status" aria-label="Loading" />
      )}
    </Modal>
  );
}
