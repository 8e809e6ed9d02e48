import { useId, useState } from 'react';
import { ROLES, type Role, type User } from '../../../../shared/index.ts';
import { Modal, useDiscardGuard } from '../../ui/Modal.tsx';
import { listName } from './filter-users.ts';

type Props = {
  user: User | null;
  onCancel: () => void;
  /** Resolves when the request is over (successful or not). */
  onUpdate: (user: User, role: Role) => Promise<void>;
};

export function ChangeRoleDialog({ user, onCancel, onUpdate }: Props) {
  return (
    <Modal open={user !== null} title="Change User Role" onClose={onCancel} size="sm" sheet>
      {user && <ChangeRoleForm key={user.id} user={user} onCancel={onCancel} onUpdate={onUpdate} />}
    </Modal>
  );
}

function ChangeRoleForm({ user, onCancel, onUpdate }: { user: User } & Omit<Props, 'user'>) {
  const id = useId();
  const [role, setRole] = useState<Role>(user.role ?? 'Staff');
  const [pending, setPending] = useState(false);
  const cancel = useDiscardGuard(role !== (user.role ?? 'Staff'), onCancel);

  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        try {
          await onUpdate(user, role);
        } finally {
          setPending(false);
        }
      }}
    >
      <p className="text-base-content/80">Select a new role for the user</p>
      <p className="mt-1 font-medium">
        {listName(user)} <span className="text-sm text-base-content/60">({user.email})</span>
      </p>
      <div className="fieldset mt-3">
        <label htmlFor={`${id}-role`} className="fieldset-legend pb-1">
          Role
        </label>
        <select id={`${id}-role`} className="select w-full" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </div>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={cancel} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Updating...' : 'Update Role'}
        </button>
      </div>
    </form>
  );
}
