import { useSyncStatus } from '../../data/context.tsx';
import { isNetworkError, isUnauthorized } from '../../lib/api.ts';
import { useToast } from '../../ui/Toast.tsx';
import { useAuth, useRefreshUser } from '../auth/AuthProvider.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { ProfileDetailsForm, type ProfileFields } from './ProfileDetailsForm.tsx';
import { ProfileOverviewCard } from './ProfileOverviewCard.tsx';
import { updateProfile } from './update-profile.ts';

/** [U7] Profile. Saving needs the server (the account is not in the synced document). */
export function ProfileScreen() {
  const auth = useAuth();
  const refreshUser = useRefreshUser();
  const { online } = useSyncStatus();
  const toast = useToast();

  const save = async (fields: ProfileFields): Promise<boolean> => {
    try {
      await updateProfile(fields);
    } catch (error) {
      if (isUnauthorized(error)) {
        signInAgain(toast);
        return false;
      }
      if (!isNetworkError(error)) console.error(error);
      toast({ title: 'Error', description: 'Failed to update profile. Please try again.', variant: 'destructive' });
      return false;
    }
    await refreshUser();
    toast({ title: 'Success', description: 'Profile updated successfully', variant: 'success' });
    return true;
  };

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold">Profile</h1>
        <p className="text-base-content/70">Manage your account information</p>
      </div>
      {auth.status === 'signed-in' ? (
        <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
          <ProfileOverviewCard user={auth.user} />
          <ProfileDetailsForm user={auth.user} online={online} onSave={save} />
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[1fr_2fr]" role="status" aria-busy="true" aria-label="Loading profile">
          <div className="skeleton h-72 w-full" />
          <div className="skeleton h-72 w-full" />
        </div>
      )}
    </section>
  );
}
