import { useState } from 'react';
import { timeAgo } from './relative-time.ts';

/**
 * "5 min ago" (after `prefix`), with the exact time in the viewer's locale as its tooltip.
 * The tooltip is written when a pointer comes over the text, not at render: the first
 * locale-sensitive format of a page loads the browser's locale data, a long task on a
 * phone, and these times render with the first screens (the header's sync badge on every
 * start, the Dashboard's Recent Activity after signing in).
 */
export function TimeAgo({ at, now, prefix = '', className }: { at: number; now: number; prefix?: string; className?: string }) {
  const [exact, setExact] = useState<string>();
  return (
    <span
      className={className}
      title={exact}
      onPointerEnter={() => setExact(Number.isFinite(at) ? new Date(at).toLocaleString() : undefined)}
    >
      {prefix}
      {timeAgo(at, now)}
    </span>
  );
}
