import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ranchDetailsInput, type RanchDetailsFields, type RanchDetailsInput } from '../../../../shared/index.ts';
import { useSyncField } from '../../data/context.tsx';
import { ApiError } from '../../lib/api.ts';
import { FormField, invalidProps } from '../../ui/FormField.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { type KeptRanchDetails, saveRanchDetails, useRanchDetails } from './ranch-details.ts';
import { uploadLogo } from './upload-logo.ts';

const SERVER_FIELDS = ['name', 'address', 'phone', 'email', 'logoUrl'] as const;
export const OFFLINE_TEXT = "You are offline — the ranch's details can be changed when there is a connection.";

const storedValues = (ranch: KeptRanchDetails) => ({
  name: ranch.name ?? '',
  address: ranch.address ?? '',
  phone: ranch.phone ?? '',
  email: ranch.email ?? '',
  logoUrl: ranch.logoUrl ?? '',
});

/**
 * [L9] Ranch details (Admin only): the name, address, phone, e-mail and logo that head
 * every receipt. Saved to the server at once; offline the form says so and does not save.
 */
export function RanchDetailsCard() {
  const id = useId();
  const ranch = useRanchDetails();
  const online = useSyncField('online');
  const toast = useToast();
  const [logoState, setLogoState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<RanchDetailsInput, unknown, RanchDetailsFields>({
    resolver: zodResolver(ranchDetailsInput),
    values: storedValues(ranch),
    resetOptions: { keepDirtyValues: true },
  });
  const watchedLogo = watch('logoUrl');
  const logoUrl = typeof watchedLogo === 'string' ? watchedLogo : '';
  const logoPreview = logoUrl && logoUrl === ranch.logoUrl ? (ranch.logoData ?? logoUrl) : logoUrl;

  const submit = handleSubmit(async (fields) => {
    try {
      await saveRanchDetails(fields);
      toast({ title: 'Ranch details saved', variant: 'success' });
    } catch (error) {
      const issues = error instanceof ApiError ? error.issues : [];
      for (const issue of issues) {
        const field = SERVER_FIELDS.find((name) => name === issue.path);
        if (field) setError(field, { message: issue.message });
      }
      if (issues.length === 0) {
        const description = error instanceof ApiError ? (error.body?.message ?? error.message) : "The server can't be reached.";
        toast({ title: 'Failed to save ranch details', description, variant: 'destructive' });
      }
    }
  });

  const pickLogo = async (file: File | undefined) => {
    if (!file) return;
    setLogoState({ busy: true, error: null });
    try {
      setValue('logoUrl', await uploadLogo(file), { shouldDirty: true });
      setLogoState({ busy: false, error: null });
    } catch (error) {
      setLogoState({ busy: false, error: error instanceof Error ? error.message : 'The logo could not be uploaded.' });
    }
  };

  const logoMessage = logoState.busy ? 'Uploading logo…' : (logoState.error ?? errors.logoUrl?.message ?? null);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="card-title">
          Ranch details
        </h2>
        <p className="text-sm text-base-content/70">The name, address and logo at the head of every receipt.</p>
        <form noValidate onSubmit={submit}>
          <fieldset disabled={!online || isSubmitting} className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
            <FormField label="Ranch Name" htmlFor={`${id}-name`} error={errors.name} required className="sm:col-span-2">
              <input
                id={`${id}-name`}
                className="input w-full"
                autoComplete="organization"
                {...register('name')}
                {...invalidProps(errors.name, `${id}-name`)}
              />
            </FormField>
            <FormField label="Address" htmlFor={`${id}-address`} error={errors.address} className="sm:col-span-2">
              <textarea
                id={`${id}-address`}
                className="textarea w-full"
                rows={3}
                autoComplete="street-address"
                {...register('address')}
                {...invalidProps(errors.address, `${id}-address`)}
              />
            </FormField>
            <FormField label="Phone" htmlFor={`${id}-phone`} error={errors.phone}>
              <input
                id={`${id}-phone`}
                type="tel"
                className="input w-full"
                autoComplete="tel"
                {...register('phone')}
                {...invalidProps(errors.phone, `${id}-phone`)}
              />
            </FormField>
            <FormField label="Email" htmlFor={`${id}-email`} error={errors.email}>
              <input
                id={`${id}-email`}
                type="email"
                className="input w-full"
                autoComplete="email"
                {...register('email')}
                {...invalidProps(errors.email, `${id}-email`)}
              />
            </FormField>
            <div className="fieldset py-1 sm:col-span-2">
              <label htmlFor={`${id}-logo`} className="fieldset-legend pb-1">
                Logo
              </label>
              <div className="flex items-center gap-3">
                {logoPreview ? (
                  <img src={logoPreview} alt="Ranch logo" className="size-16 rounded object-contain" />
                ) : (
                  <div className="size-16 rounded bg-base-200" aria-hidden="true" />
                )}
                <div className="min-w-0 flex-1 space-y-1">
                  <input
                    id={`${id}-logo`}
                    type="file"
                    accept="image/*"
                    className="file-input w-full"
                    disabled={logoState.busy}
                    aria-describedby={logoMessage ? `${id}-logo-hint` : undefined}
                    aria-invalid={logoState.error || errors.logoUrl ? true : undefined}
                    onChange={(event) => {
                      void pickLogo(event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                  {logoUrl && (
                    <button type="button" className="btn btn-ghost btn-xs" onClick={() => setValue('logoUrl', '', { shouldDirty: true })}>
                      Remove logo
                    </button>
                  )}
                </div>
              </div>
              {logoMessage && (
                <p id={`${id}-logo-hint`} className={`label whitespace-normal ${logoState.busy ? '' : 'text-error'}`} aria-live="polite">
                  {logoMessage}
                </p>
              )}
            </div>
          </fieldset>
          {!online && (
            <p role="status" className="alert alert-warning mt-2">
              {OFFLINE_TEXT}
            </p>
          )}
          <div className="mt-4">
            {/* Outlined: Administration's one primary is its list's Add button ([B9]). */}
            <button type="submit" className="btn btn-outline" disabled={!online || isSubmitting || logoState.busy}>
              {isSubmitting ? 'Saving...' : 'Save Ranch Details'}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
