import type { User } from '../../../../shared/index.ts';
import { initials } from '../../lib/user-display.ts';

type AvatarUser = Pick<User, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;

/** The picture when there is one, else the initials ('U' without a name). */
export function UserAvatar({ user, size = 'w-10' }: { user: AvatarUser; size?: string }) {
  return (
    <div className="avatar avatar-placeholder">
      <div className={`${size} rounded-full bg-neutral text-neutral-content`}>
        {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : <span aria-hidden="true">{initials(user)}</span>}
      </div>
    </div>
  );
}
