import { useEffect, useState } from 'react';
import { whenIdle } from '../lib/when-idle.ts';

/**
 * Whether content out of sight at first should be made: true at once when `now` is, otherwise
 * from the first time the page is idle after it mounted (`whenIdle`), or from the first render
 * in which `now` is true, whichever comes first; then true for good. For content that a start
 * would make, style and lay out without showing it (the phone's closed drawer): it is made in a
 * task of its own once the start is done, and is there before a finger reaches for it.
 */
export function useMadeWhenIdle(now: boolean): boolean {
  const [made, setMade] = useState(now);
  if (now && !made) setMade(true);
  useEffect(() => (made ? undefined : whenIdle(() => setMade(true))), [made]);
  return made || now;
}
