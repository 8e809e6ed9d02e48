/**
 * [B15] The browser's Back (a phone's back gesture) closes the form dialog on top, as its
 * Cancel does, asking first when it has changes, instead of leaving the screen under it.
 * Each open form dialog registers its close here (`useDiscardGuard` in Modal.tsx); the root
 * route's blocker (`useBackClosesForms`) calls the top one and keeps the page where it is.
 */
const open: Array<() => void> = [];

/** Registers `close` as the top form's while it is open; returns its removal. */
export function whileOpen(close: () => void): () => void {
  open.push(close);
  return () => {
    const at = open.lastIndexOf(close);
    if (at >= 0) open.splice(at, 1);
  };
}

/** Closes (or asks to close) the form dialog on top; false when none is open. */
export function closeTopForm(): boolean {
  const close = open.at(-1);
  if (!close) return false;
  close();
  return true;
}
