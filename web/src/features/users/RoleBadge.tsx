import { DEFAULT_ROLE, type Role } from '../../../../shared/index.ts';

/** [R2] quiet badges: a role is a fact about a person, not a warning (docs/design.md "Status colours"). */
const ROLE_CLASS: Record<Role, string> = {
  Admin: 'badge-soft badge-primary',
  Staff: 'badge-soft badge-secondary',
  Viewer: 'badge-ghost',
};

export function RoleBadge({ role }: { role: Role | null | undefined }) {
  const shown = role ?? DEFAULT_ROLE;
  return <span className={`badge whitespace-nowrap ${ROLE_CLASS[shown]}`}>{shown}</span>;
}
