import type { User } from '../../../../shared/index.ts';
import { countByRole } from './filter-users.ts';

export function UserTiles({ users }: { users: User[] | undefined }) {
  const counts = users ? countByRole(users) : undefined;
  const tiles = [
    { label: 'Total Users', value: users?.length },
    { label: 'Admins', value: counts?.Admin },
    { label: 'Staff', value: counts?.Staff },
    { label: 'Viewers', value: counts?.Viewer },
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="User summary">
      {tiles.map((tile) => (
        <li key={tile.label} className="card bg-base-100 shadow-sm">
          <div className="card-body p-4">
            <p className="text-sm text-base-content/70">{tile.label}</p>
            <p className="text-2xl font-bold">{tile.value ?? '—'}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
