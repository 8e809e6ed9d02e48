import { useState } from 'react';
import { isPhotoReference } from '../../../../shared/index.ts';
import { outboxIdOf } from '../../data/photos/photo-ref.ts';
import { HorseIcon } from '../../ui/icons.tsx';
import { useOutboxPhoto } from './use-outbox-photo.ts';

/**
 * The inside of a horse's avatar: the photo, the placeholder when there is none, or
 * "photo on its way" when the photo is still in another device's outbox. A photo in this
 * device's outbox shows from the stored bytes, offline too.
 */
export function HorsePhoto({ photoUrl, name }: { photoUrl: string | null; name: string }) {
  const outboxId = outboxIdOf(photoUrl);
  const alt = `Photo of ${name}`;
  // [I6] Only this ranch's photos are shown: an address the document should never hold (another
  // site, `/api/logout`) is never requested by the browser.
  if (!photoUrl || !isPhotoReference(photoUrl)) return <Placeholder />;
  // Only an outbox photo needs its live query: a list renders this for every row in view.
  // Keyed by the photo: a phone's card takes another horse in place (DataTable's CARD_KEYS),
  // and an <img> given a new address keeps showing the old picture until the new one loads.
  if (outboxId) return <OutboxPhoto key={outboxId} id={outboxId} alt={alt} />;
  return <ServedPhoto key={photoUrl} photoUrl={photoUrl} alt={alt} />;
}

/**
 * A horse without a photo: the horse icon, drawn as SVG. It was the 🐴 emoji, whose first
 * layout sends the browser looking for an emoji font (a fallback search over every font, or
 * a colour-emoji font of megabytes to load) inside the task that shows a phone's first rows.
 */
function Placeholder() {
  // Sized by its box's font size, as the emoji was: larger in the form and the details.
  return <HorseIcon className="size-[1.25em]" />;
}

function OutboxPhoto({ id, alt }: { id: string; alt: string }) {
  const local = useOutboxPhoto(id);
  if (local) return <img src={local} alt={alt} className="object-cover" />;
  if (local === undefined) return <Placeholder />;
  return (
    <span role="img" aria-label={`${alt} on its way`} title="Photo on its way" className="text-base">
      ⏳
    </span>
  );
}

function ServedPhoto({ photoUrl, alt }: { photoUrl: string; alt: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  // Served photos are cached by the browser once seen; one never seen cannot show offline.
  if (broken === photoUrl) {
    return (
      <span role="img" aria-label={`${alt} not available offline`} title="Photo not available offline">
        <Placeholder />
      </span>
    );
  }
  return <img src={photoUrl} alt={alt} className="object-cover" onError={() => setBroken(photoUrl)} />;
}
