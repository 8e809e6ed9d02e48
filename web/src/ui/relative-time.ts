/**
 * "just now", "2 min ago", "3 h ago", "4 days ago": how long ago `at` was, coarse on purpose.
 * A time in the future (another device's clock) is 'just now'; no time (NaN, from a
 * malformed date) is ''.
 */
export function timeAgo(at: number, now: number): string {
  if (!Number.isFinite(at)) return '';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}
