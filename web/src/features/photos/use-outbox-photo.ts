import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from '../../data/context.tsx';

/**
 * An object URL for a photo in this device's outbox: a string while it is here, null when
 * it is not (taken on another device, or already uploaded), undefined while looking.
 */
export function useOutboxPhoto(id: string | null): string | null | undefined {
  const { db } = useRanchData();
  const photo = useLiveQuery(async () => (id ? ((await db.photoOutbox.get(id)) ?? null) : null), [db, id]);
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const latest = useRef(photo);
  latest.current = photo;
  // The bytes of an entry never change, so a new URL is made only when another entry (or
  // none) is shown, not each time the upload records its progress.
  const key = photo === undefined ? undefined : (photo?.id ?? null);
  useEffect(() => {
    const current = latest.current;
    if (!current) return setUrl(key);
    const objectUrl = URL.createObjectURL(new Blob([current.bytes], { type: current.type }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [key]);
  return url;
}
