import { tabbable } from 'tabbable';
import { afterNextFrame } from '../lib/after-next-frame.ts';

/**
 * Dialogs shown on top of the page without making the rest of it inert.
 *
 * `showModal()` makes every element outside the dialog inert, and Chromium restyles the whole
 * screen for it as the dialog opens and again as it closes: on a phone the two passes are
 * the largest part of the tasks that show and hide a dialog (docs/web.md). Here a dialog
 * is a manual popover shown with `show()`: in the top layer, above everything, as a modal
 * dialog is; `show()` focuses its first field as `showModal()` does;
 * `closedby="closerequest"` (set by `Modal`) lets Escape close the top one, and what had the
 * focus gets it back as it goes. What inertness also did is done here: the dialog's
 * full-screen backdrop takes the taps, Tab and Shift+Tab go round the top dialog's fields
 * (`tabbable` says which and in what order), and `aria-modal` tells screen readers.
 * A browser without popovers (iOS before 17) gets `showModal()` as before.
 */
const shown: HTMLDialogElement[] = [];
/** What had the focus when each dialog showed: it gets it back as the dialog goes. */
const focusedBefore = new WeakMap<HTMLDialogElement, Element>();

/** Whether Escape closes a dialog shown with `show()` and `closedby` (not in Safari yet). */
const escapeCloses = typeof HTMLDialogElement !== 'undefined' && 'closedBy' in HTMLDialogElement.prototype;

/** The last dialog shown that is still open and in the page. */
function topDialog(): HTMLDialogElement | undefined {
  for (let i = shown.length - 1; i >= 0; i--) {
    const dialog = shown[i]!;
    if (dialog.isConnected && dialog.open) return dialog;
  }
  return undefined;
}

function onKeyDown(event: KeyboardEvent) {
  const top = topDialog();
  if (!top || event.defaultPrevented) return;
  if (event.key === 'Escape' && !escapeCloses) {
    event.preventDefault();
    // As a close request does: a cancel first, which a form with changes stops to ask ([B15]).
    if (top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
    return;
  }
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabbable(top);
  const first = stops[0];
  const last = stops.at(-1);
  const active = document.activeElement;
  const inside = active !== null && top.contains(active);
  if (!first || !last) {
    event.preventDefault(); // Nothing to go to: the focus stays in the dialog.
    return;
  }
  if (!inside || active === (event.shiftKey ? first : last)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}

/** Shows `dialog` on top of the page; `hideFromTop` hides it. */
export function showOnTop(dialog: HTMLDialogElement): void {
  if (typeof dialog.showPopover !== 'function') {
    dialog.showModal();
    return;
  }
  const before = document.activeElement;
  dialog.showPopover();
  try {
    dialog.show();
  } catch (error) {
    dialog.hidePopover();
    throw error;
  }
  // React's `autoFocus` focuses as the content renders, while the dialog is not shown yet,
  // and writes no `autofocus` for `show()` to find: `data-autofocus` names the control that
  // takes the focus (Cancel in a confirmation, Keep Editing: [B2], [B15]), not a nested dialog's.
  const wanted = [...dialog.querySelectorAll<HTMLElement>('[data-autofocus]')].find((control) => control.closest('dialog') === dialog);
  wanted?.focus();
  if (before) focusedBefore.set(dialog, before);
  if (shown.length === 0) document.addEventListener('keydown', onKeyDown);
  shown.push(dialog);
}

/** Takes `dialog` off the top (closed already, or about to be); safe to call more than once. */
export function hideFromTop(dialog: HTMLDialogElement): void {
  const at = shown.indexOf(dialog);
  if (at >= 0) shown.splice(at, 1);
  if (at >= 0 && shown.length === 0) document.removeEventListener('keydown', onKeyDown);
  const active = document.activeElement;
  const hadFocus = active === null || active === document.body || dialog.contains(active);
  if (typeof dialog.hidePopover === 'function' && dialog.matches(':popover-open')) dialog.hidePopover();
  const before = focusedBefore.get(dialog);
  focusedBefore.delete(dialog);
  if (hadFocus && before instanceof HTMLElement) void afterNextFrame().then(() => giveFocusBack(dialog, before));
}

/**
 * Focuses `before` again unless something else took the focus meanwhile (another dialog, a
 * tap, the dialog shown again) or it has gone. A frame after the dialog went, not with it:
 * focusing styles the page first, and the page had just lost the dialog and its lock, so
 * the focus would restyle it in the task that removed the dialog; the frame styles it
 * anyway.
 */
function giveFocusBack(dialog: HTMLDialogElement, before: HTMLElement): void {
  const active = document.activeElement;
  const free = active === null || active === document.body || (!dialog.open && dialog.contains(active));
  if (free && before.isConnected) before.focus({ preventScroll: true });
}
