import { useEffect, type RefObject } from 'react';

/** How much of the window a pinch zoom leaves: a zoomed page is not a keyboard. */
const UNZOOMED = 1.01;
/** Less than this hidden at the bottom is a browser's toolbar moving, not a keyboard. */
const KEYBOARD_FROM_PX = 80;

/**
 * The part of the window the on-screen keyboard leaves, where the layout does not shrink for
 * it: `{ top, height }` in CSS pixels, or null when nothing is hidden. Chromium on Android
 * shrinks the layout (`interactive-widget=resizes-content`, index.html), so there the
 * visual viewport fills the window and this is null; iOS Safari keeps the layout's height
 * and only the visual viewport shrinks, scrolled by `offsetTop` to the field typed in.
 */
export function keyboardGap(view: VisualViewport | undefined, windowHeight: number): { top: number; height: number } | null {
  if (!view || view.scale > UNZOOMED) return null;
  const hidden = windowHeight - view.height;
  return hidden >= KEYBOARD_FROM_PX ? { top: view.offsetTop, height: view.height } : null;
}

/**
 * [B13] A sheet stays above the on-screen keyboard where the browser does not shrink the
 * layout for it (iOS): while `active`, the dialog is fitted to the visual viewport (styles.css,
 * `dialog.modal[data-keyboard]`), so its action bar sits just above the keyboard.
 */
export function useKeyboardFit(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const element = ref.current;
    const view = window.visualViewport ?? undefined;
    if (!active || !element || !view) return;
    const follow = () => {
      const gap = keyboardGap(view, window.innerHeight);
      if (gap) {
        element.dataset.keyboard = '';
        element.style.setProperty('--visual-top', `${gap.top}px`);
        element.style.setProperty('--visual-height', `${gap.height}px`);
      } else {
        delete element.dataset.keyboard;
        element.style.removeProperty('--visual-top');
        element.style.removeProperty('--visual-height');
      }
    };
    follow();
    view.addEventListener('resize', follow);
    view.addEventListener('scroll', follow);
    return () => {
      view.removeEventListener('resize', follow);
      view.removeEventListener('scroll', follow);
      delete element.dataset.keyboard;
      element.style.removeProperty('--visual-top');
      element.style.removeProperty('--visual-height');
    };
  }, [ref, active]);
}
