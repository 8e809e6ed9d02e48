import { useEffect, useId, useRef, type ReactNode } from 'react';
import { afterNextFrame } from '../lib/after-next-frame.ts';
import { CloseIcon } from './icons.tsx';
import { lockPageScroll } from './page-lock.ts';
import { hideFromTop, showOnTop } from './top-layer.ts';

type ModalProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** `sm` for confirmations, `md` (default) for forms. */
  size?: 'sm' | 'md';
  /**
   * Fills a phone's screen (docs/design.md "Dialogs"): forms and details; `md` dialogs unless
   * told. A confirmation stays a small sheet at the bottom.
   */
  sheet?: boolean;
};

/**
 * A daisyUI modal on a real <dialog>, shown on top of the page (top-layer.ts): focus is kept
 * in it, Escape closes it, and it is named by its title. Content mounts only while open, so
 * forms start fresh every time.
 */
export function Modal({ open, title, onClose, children, size = 'md', sheet = size === 'md' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const unlock = useRef<() => void>(undefined);
  const titleId = useId();

  // The page behind stays put while the dialog is shown (page-lock.ts); let go as it closes,
  // or if it goes away open, and then off the top too (top-layer.ts).
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      unlock.current?.();
      if (dialog) hideFromTop(dialog);
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // jsdom has no showModal(); the open attribute gives the same content there.
      if (typeof dialog.showModal !== 'function') {
        dialog.setAttribute('open', '');
        return;
      }
      // In a task of its own, after a frame: the tap's task renders the content into the
      // closed dialog, and showing it then styles and lays the content out, once: the box is
      // not displayed until the dialog is open (styles.css), so the frame between does not
      // style it first: render and show are two shorter tasks instead of one long one on a
      // phone (docs/web.md). Shown on top without making the page inert (top-layer.ts), it
      // does not restyle the page.
      //
      // The page is locked now, so the frame before the show restyles for it; locked in the
      // show's task instead, the lock's restyle during a start reached far into the page.
      unlock.current?.();
      const release = lockPageScroll();
      unlock.current = release;
      let wanted = true;
      void afterNextFrame().then(() => {
        if (!wanted || !dialog.isConnected || dialog.open) return;
        dialog.addEventListener('close', release, { once: true });
        try {
          showOnTop(dialog);
        } catch (error) {
          release(); // Not shown: the page stays free.
          throw error;
        }
      });
      return () => {
        wanted = false;
        if (!dialog.open) release(); // Closed or gone before it showed: the page is free again.
      };
    }
    if (!open && dialog.open) {
      unlock.current?.(); // In the close's own restyle, not after its event.
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      hideFromTop(dialog);
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      aria-modal="true"
      popover="manual"
      closedby="closerequest"
      // React hands a nested dialog's close and cancel to its parents' handlers too: only this
      // dialog's own close it (Record Care inside Horse Details must leave the details open).
      onClose={(event) => {
        if (event.target !== event.currentTarget) return;
        hideFromTop(event.currentTarget); // Closed by Escape or the backdrop.
        onClose();
      }}
      onCancel={(event) => {
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className={`modal-box ${size === 'sm' ? 'max-w-md' : 'max-w-2xl'} ${sheet ? 'modal-sheet' : ''}`}>
          <div className="modal-head">
            <h2 id={titleId} className="text-lg font-bold">
              {title}
            </h2>
            <button type="button" className="btn btn-sm btn-circle btn-ghost" aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </button>
          </div>
          <div className="modal-body">{children}</div>
        </div>
      )}
      <form method="dialog" className="modal-backdrop">
        {/* Submitting a method="dialog" form closes the dialog, which reports through onClose. */}
        <button type="submit" tabIndex={-1}>
          close
        </button>
      </form>
    </dialog>
  );
}
