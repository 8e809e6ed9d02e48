import { useEffect, useRef, useState } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { outboxIdOf, outboxRef } from '../../data/photos/photo-ref.ts';
import { compressPhoto } from '../../lib/compress-photo.ts';
import { useMediaQuery } from '../../ui/use-media-query.ts';
import { HorseAvatar } from './HorseAvatar.tsx';

type PhotoFieldProps = {
  id: string;
  /** The horse's photoUrl: '' for none, a server path, or an outbox reference. */
  value: string;
  onChange: (photoUrl: string) => void;
  horseName: string;
};

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * [I1] photo: one file, from the camera on phones (capture) or a file pick on desks.
 * The picked photo is compressed and stored in the outbox at once, as a draft that the
 * preview shows; saving the horse queues it (HorseDialog). Drafts this field made and did
 * not see saved are discarded when it goes away.
 */
export function PhotoField({ id, value, onChange, horseName }: PhotoFieldProps) {
  const { photos } = useRanchData();
  const phone = useMediaQuery('(pointer: coarse)', false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sizes, setSizes] = useState<{ before: number; after: number } | null>(null);
  const drafts = useRef(new Set<string>());

  useEffect(() => {
    const made = drafts.current;
    return () => made.forEach((draft) => void photos.discardDraft(draft));
  }, [photos]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const photo = await compressPhoto(file);
      const draft = await photos.addDraft(photo.bytes, photo.type, photo.originalSize);
      const previous = outboxIdOf(value);
      if (previous && drafts.current.has(previous)) void photos.discardDraft(previous);
      drafts.current.add(draft);
      setSizes({ before: photo.originalSize, after: photo.bytes.byteLength });
      onChange(outboxRef(draft));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'This photo could not be used.');
    } finally {
      setBusy(false);
    }
  };

  const hintId = `${id}-hint`;
  return (
    <div className="fieldset py-1 sm:col-span-2">
      <label htmlFor={id} className="fieldset-legend pb-1">
        Photo
      </label>
      <div className="flex items-center gap-3">
        <HorseAvatar photoUrl={value || null} name={horseName || 'the horse'} size="form" />
        <div className="min-w-0 flex-1 space-y-1">
          <input
            id={id}
            type="file"
            accept="image/*"
            {...(phone ? { capture: 'environment' as const } : {})}
            className="file-input w-full"
            disabled={busy}
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              void pick(event.target.files?.[0]);
              // The same file picked again must still fire a change.
              event.target.value = '';
            }}
          />
          {value && (
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => onChange('')}>
              Remove photo
            </button>
          )}
        </div>
      </div>
      <p id={hintId} className={`label whitespace-normal ${error ? 'text-error' : ''}`} aria-live="polite">
        {busy
          ? 'Preparing photo…'
          : error
            ? error
            : sizes
              ? `Photo ready (${megabytes(sizes.before)} → ${megabytes(sizes.after)}); it is sent when there is signal.`
              : 'One photo, up to 10 MB after compression.'}
      </p>
    </div>
  );
}
