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
    focusFirst(dialog);
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
  focusFirst(dialog);
  if (before) focusedBefore.set(dialog, before);
  if (shown.length === 0) document.addEventListener('keydown', onKeyDown);
  shown.push(dialog);
}

/** Whether an on-screen keyboard would come up for a focused field: a touch screen. */
const touchScreen = () => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

/** The dialog's own elements matching `selector`, not a nested dialog's. */
const own = <E extends Element>(dialog: HTMLDialogElement, selector: string): E[] =>
  [...dialog.querySelectorAll<E>(selector)].filter((element) => element.closest('dialog') === dialog);

/**
 * [B14] Where the focus starts as `dialog` shows (`show()` and `showModal()` put it on the
 * dialog's first focusable element: the box, when it scrolls, else the title bar's ✕): on
 * the control named by `data-autofocus` (Cancel in a confirmation, Keep Editing: [B2],
 * [B15]); else on its form's first field, so a keyboard user types at once and a screen
 * reader names the dialog and then that field — except on a touch screen, where a focused
 * field brings up the on-screen keyboard over half the sheet before anyone asked to type:
 * there the focus stays where the browser put it, and a tap picks the field.
 * React's `autoFocus` focuses as the content renders, while the dialog is not shown yet, and
 * writes no `autofocus` for `show()` to find, hence `data-autofocus`.
 */
function focusFirst(dialog: HTMLDialogElement): void {
  const wanted = own<HTMLElement>(dialog, '[data-autofocus]')[0];
  if (wanted) {
    wanted.focus();
    return;
  }
  const form = own<HTMLFormElement>(dialog, 'form')[0];
  if (!form || touchScreen()) return;
  const field = tabbable(form).find((element) => element.matches('input, select, textarea') && element.closest('dialog') === dialog);
  field?.focus();
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
