import { DEFAULT_ROLE, type Role } from '../../../../shared/index.ts';

/** [R2] badge styles: Admin destructive, Staff default, Viewer secondary. */
const ROLE_CLASS: Record<Role, string> = {
  Admin: 'badge-error',
  Staff: 'badge-primary',
  Viewer: 'badge-secondary',
};

export function RoleBadge({ role }: { role: Role | null | undefined }) {
  const shown = role ?? DEFAULT_ROLE;
  return <span className={`badge whitespace-nowrap ${ROLE_CLASS[shown]}`}>{shown}</span>;
}
