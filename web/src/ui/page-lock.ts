/**
 * The page's scroll lock while a dialog or the phone's drawer is open: `data-page-locked` on
 * the root (styles.css), held by each open dialog and drawer and taken off when the last
 * lets go. daisyUI locks the page through `:root:has(.modal[open])` and three rules like it;
 * every restyle of the root matched each by walking the whole page, a third of a dialog's
 * restyle on a phone (docs/web.md "Dialogs restyle the screen once"). An attribute, not a
 * class: a class on the root restyled ~90 elements more with it (Chromium's invalidation
 * for the stylesheet's classes). Its value is `scrolls` when the page could scroll as it was
 * locked: the root then keeps a scrollbar's room, so that nothing behind the dialog moves
 * sideways on a desk.
 */
const holders = new Set<object>();

/** Locks the page's scroll until the returned function is called (once or more: the first counts). */
export function lockPageScroll(): () => void {
  const root = document.documentElement;
  const holder = {};
  if (holders.size === 0) root.dataset.pageLocked = root.scrollHeight > root.clientHeight ? 'scrolls' : '';
  holders.add(holder);
  return () => {
    if (!holders.delete(holder) || holders.size > 0) return;
    delete root.dataset.pageLocked;
  };
}
