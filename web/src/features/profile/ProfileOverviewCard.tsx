import type { User } from '../../../../shared/index.ts';
import { displayName } from '../../lib/user-display.ts';
import { RoleBadge } from '../users/RoleBadge.tsx';
import { localDate } from '../../lib/format-date.ts';
import { UserAvatar } from './UserAvatar.tsx';

export function ProfileOverviewCard({ user }: { user: User }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="profile-overview">
      <div className="card-body items-center text-center">
        <h2 id="profile-overview" className="card-title self-start">
          Profile Overview
        </h2>
        <UserAvatar user={user} size="w-20 text-2xl" />
        <p className="text-xl font-semibold">{displayName(user)}</p>
        <p className="text-base-content/70">{user.email}</p>
        <RoleBadge role={user.role} />
        <dl className="mt-2 grid w-full grid-cols-2 gap-2 text-left text-sm">
          <dt className="text-base-content/60">Member since</dt>
          <dd>{localDate(user.createdAt)}</dd>
          <dt className="text-base-content/60">Last updated</dt>
          <dd>{localDate(user.updatedAt)}</dd>
        </dl>
      </div>
    </section>
  );
}
