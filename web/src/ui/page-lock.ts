/**
 * The page's scroll lock while a dialog or the phone's drawer is open: `data-page-locked` on
 * the root (styles.css), held by each open dialog and drawer and taken off when the last
 * lets go. daisyUI locks the page through `:root:has(.modal[open])` and three rules like it;
 * every restyle of the root matched each by walking the whole page, a large part of a
 * dialog's restyle on a phone (docs/web.md). An attribute, not a class: a class on the root
 * widens Chromium's invalidation to the elements matched by the stylesheet's classes. Its value is `scrolls` when the page could scroll as last
 * laid out before the lock: the root then keeps a scrollbar's room, so that nothing behind
 * the dialog moves sideways on a desk.
 */
const holders = new Set<object>();

/**
 * Whether the page could scroll at its last layout; undefined while not known. Measured
 * where layout is already done: in a ResizeObserver's callback (after the frame's layout),
 * whenever the body or the root changes size. Reading it at the lock would lay the page
 * out in the tap's task, behind the dialog's render (the pending layout of the rows rendered
 * since the last frame). A resize of the window (its height changes no
 * element's size) makes it unknown again until the next callback; the lock then reads it
 * itself, as it does where there is no ResizeObserver.
 */
let scrollsAtLastLayout: boolean | undefined;

/** Whether the page is taller than the window (a read that lays the page out if it changed). */
const pageScrolls = (): boolean => document.documentElement.scrollHeight > document.documentElement.clientHeight;

function watchPageScroll(): void {
  if (typeof ResizeObserver === 'undefined') return;
  const observer = new ResizeObserver(() => {
    scrollsAtLastLayout = pageScrolls();
  });
  observer.observe(document.documentElement);
  observer.observe(document.body);
  window.addEventListener('resize', () => {
    scrollsAtLastLayout = undefined;
  });
}

if (typeof document !== 'undefined') {
  if (document.body) watchPageScroll();
  else document.addEventListener('DOMContentLoaded', watchPageScroll, { once: true });
}

/** Locks the page's scroll until the returned function is called (once or more: the first counts). */
export function lockPageScroll(): () => void {
  const root = document.documentElement;
  const holder = {};
  if (holders.size === 0) root.dataset.pageLocked = (scrollsAtLastLayout ?? pageScrolls()) ? 'scrolls' : '';
  holders.add(holder);
  return () => {
    if (!holders.delete(holder) || holders.size > 0) return;
    delete root.dataset.pageLocked;
  };
}
