import type { User } from '../../../../shared/index.ts';
import { initials } from '../../lib/user-display.ts';

type AvatarUser = Pick<User, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;

/**
 * The picture when there is one, else the initials ('U' without a name). The image is keyed
 * by its address: a phone's card takes another row in place (DataTable's CARD_KEYS), and an
 * <img> given a new address keeps showing the old picture until the new one loads.
 */
export function UserAvatar({ user, size = 'w-10' }: { user: AvatarUser; size?: string }) {
  return (
    <div className="avatar avatar-placeholder">
      <div className={`${size} rounded-full bg-neutral text-neutral-content`}>
        {user.profileImageUrl ? (
          <img key={user.profileImageUrl} src={user.profileImageUrl} alt="" />
        ) : (
          <span aria-hidden="true">{initials(user)}</span>
        )}
      </div>
    </div>
  );
}
