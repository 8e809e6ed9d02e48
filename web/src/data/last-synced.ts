/** When the server last acknowledged this device's state, kept in this browser across reloads (the header's 'Synced 2 min ago'). */
const LAST_SYNCED_KEY = 'ranch.lastSyncedAt';

/** The stored time (ms since epoch), or null; null too where there is no localStorage (the data worker). */
export function readLastSynced(): number | null {
  try {
    const value = Number(localStorage.getItem(LAST_SYNCED_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export function writeLastSynced(at: number): void {
  try {
    localStorage.setItem(LAST_SYNCED_KEY, String(at));
  } catch {
    // Storage disabled, or the data worker (the page stores it from the status it receives).
  }
}
