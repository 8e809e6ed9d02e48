import { useSyncField } from '../../data/context.tsx';
import type { ErrorIssue } from '../../../../shared/index.ts';
import { ApiError, isNetworkError, isUnauthorized } from '../../lib/api.ts';
import { useToast } from '../../ui/Toast.tsx';
import { useAuth, useRefreshUser } from '../auth/AuthProvider.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { changePassword, type ChangePasswordFields } from './change-password.ts';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { ProfileDetailsForm, type ProfileFields } from './ProfileDetailsForm.tsx';
import { ProfileOverviewCard } from './ProfileOverviewCard.tsx';
import { updateProfile } from './update-profile.ts';

/** [U7] Profile. Saving needs the server (the account is not in the synced document). */
export function ProfileScreen() {
  const auth = useAuth();
  const refreshUser = useRefreshUser();
  const online = useSyncField('online');
  const toast = useToast();

  /** True when the request went through; else it has said why and gives the fields the server refused. */
  const attempt = async (request: () => Promise<void>, failure: string): Promise<true | ErrorIssue[]> => {
    try {
      await request();
      return true;
    } catch (error) {
      if (isUnauthorized(error)) {
        signInAgain(toast);
        return [];
      }
      if (!isNetworkError(error) && !(error instanceof ApiError && error.status < 500)) console.error(error);
      toast({ title: 'Error', description: failure, variant: 'destructive' });
      return error instanceof ApiError ? error.issues : [];
    }
  };

  const save = async (fields: ProfileFields): Promise<true | ErrorIssue[]> => {
    const result = await attempt(() => updateProfile(fields), 'Failed to update profile. Please try again.');
    if (result !== true) return result;
    await refreshUser();
    toast({ title: 'Success', description: 'Profile updated successfully', variant: 'success' });
    return true;
  };

  // [U13] The user's other sessions end on the server; this one stays.
  const changeOwnPassword = async (fields: ChangePasswordFields): Promise<true | ErrorIssue[]> => {
    const result = await attempt(() => changePassword(fields), 'Failed to change password. Please try again.');
    if (result === true) {
      toast({ title: 'Success', description: 'Password changed successfully. Your other devices are signed out.', variant: 'success' });
    }
    return result;
  };

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Profile</h1>
        <p className="text-base-content/70 max-md:hidden">Manage your account information</p>
      </div>
      {auth.status === 'signed-in' ? (
        <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
          <ProfileOverviewCard user={auth.user} />
          <div className="space-y-4">
            <ProfileDetailsForm user={auth.user} online={online} onSave={save} />
            <ChangePasswordForm online={online} onChange={changeOwnPassword} />
          </div>
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
