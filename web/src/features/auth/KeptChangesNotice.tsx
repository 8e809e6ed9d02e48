import { useEffect, useState } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { readOwner, type Unsent } from '../../data/data-owner.ts';
import { isOne, nothingUnsent, unsentText } from '../sign-out/sign-out.ts';

/** [A13]: on the landing screen after the server ended a session with changes unsent. */
export function keptText(unsent: Unsent, name: string): string {
  return `${unsentText(unsent)} could not be sent. ${isOne(unsent) ? 'It is' : 'They are'} kept on this device until ${name} signs in again.`;
}

export function KeptChangesNotice({ unsent, name }: { unsent: Unsent; name: string }) {
  return (
    <div role="alert" className="alert alert-warning mb-6 flex-col items-start text-left">
      <p className="font-semibold">You are signed out.</p>
      <p>{keptText(unsent, name)}</p>
    </div>
  );
}

/**
 * [A13]: the same on the landing screen of a later start, while the device still holds a
 * user's unsent changes (read from the data layer once its document has loaded).
 */
export function KeptOnDeviceNotice() {
  const data = useRanchData();
  const [kept, setKept] = useState<{ unsent: Unsent; name: string } | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const owner = await readOwner(data.db);
      if (!owner) return;
      const unsent = await data.countUnsent();
      if (live && !nothingUnsent(unsent)) setKept({ unsent, name: owner.name });
    })().catch(() => {});
    return () => {
      live = false;
    };
  }, [data]);
  return kept ? <KeptChangesNotice unsent={kept.unsent} name={kept.name} /> : null;
}
