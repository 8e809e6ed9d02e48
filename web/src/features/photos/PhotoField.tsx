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

/** A size as people read it: '850 KB' under a megabyte, else '12.4 MB'. */
const size = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * [I1] [I10] photo: one file. On a touch screen 'Take Photo' opens the camera and 'Choose
 * Photo' the gallery or files; on a desk 'Choose Photo' alone. The buttons open hidden file
 * inputs, so the page never shows the browser's own "No file chosen": the preview and the
 * file's name say what was picked. The picked photo is compressed and stored in the outbox at
 * once, as a draft that the preview shows; saving the horse queues it (HorseDialog). A file
 * that is not a photo is refused with a message, and the photo and fields before it stay.
 * Drafts this field made and did not see saved are discarded when it goes away.
 */
export function PhotoField({ id, value, onChange, horseName }: PhotoFieldProps) {
  const { photos } = useRanchData();
  const touch = useMediaQuery('(pointer: coarse)', false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ ref: string; name: string; before: number; after: number } | null>(null);
  const drafts = useRef(new Set<string>());
  const camera = useRef<HTMLInputElement>(null);
  const gallery = useRef<HTMLInputElement>(null);

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
      const ref = outboxRef(draft);
      setPicked({ ref, name: file.name, before: photo.originalSize, after: photo.bytes.byteLength });
      onChange(ref);
    } catch (failure) {
      const reason = failure instanceof Error ? failure.message : 'This photo could not be used.';
      setError(file.name ? `${file.name}: ${reason}` : reason);
    } finally {
      setBusy(false);
    }
  };

  const fileInput = (ref: typeof camera, inputId: string | undefined, capture: boolean) => (
    <input
      ref={ref}
      id={inputId}
      type="file"
      accept="image/*"
      {...(capture ? { capture: 'environment' as const } : {})}
      className="hidden"
      tabIndex={-1}
      disabled={busy}
      onChange={(event) => {
        void pick(event.target.files?.[0]);
        // The same file picked again must still fire a change.
        event.target.value = '';
      }}
    />
  );

  const hintId = `${id}-hint`;
  // What was picked, while it is the field's photo (not after Remove).
  const shown = picked?.ref === value ? picked : null;
  return (
    <div className="fieldset py-1 sm:col-span-2">
      <label htmlFor={id} className="fieldset-legend pb-1">
        Photo
      </label>
      <div className="flex items-center gap-3">
        <HorseAvatar photoUrl={value || null} name={horseName || 'the horse'} size="form" />
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap gap-2">
            {touch && (
              <button
                type="button"
                className="btn btn-outline"
                disabled={busy}
                aria-describedby={hintId}
                onClick={() => camera.current?.click()}
              >
                Take Photo
              </button>
            )}
            <button
              type="button"
              className="btn btn-outline"
              disabled={busy}
              aria-describedby={hintId}
              onClick={() => gallery.current?.click()}
            >
              Choose Photo
            </button>
            {value && (
              <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => onChange('')}>
                Remove photo
              </button>
            )}
          </div>
          {touch && fileInput(camera, undefined, true)}
          {fileInput(gallery, id, false)}
        </div>
      </div>
      <p id={hintId} className={`label whitespace-normal ${error ? 'text-error' : ''}`} aria-live="polite">
        {busy
          ? 'Preparing photo…'
          : error
            ? error
            : shown
              ? `Photo ready: ${shown.name} (${size(shown.before)} → ${size(shown.after)})`
              : 'One photo, up to 10 MB after compression.'}
      </p>
    </div>
  );
}
