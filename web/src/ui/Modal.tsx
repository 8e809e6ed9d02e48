import { createContext, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { afterNextFrame } from '../lib/after-next-frame.ts';
import { CloseIcon } from './icons.tsx';
import { whileOpen } from './back-closes-forms.ts';
import { lockPageScroll } from './page-lock.ts';
import { hideFromTop, showOnTop } from './top-layer.ts';
import { useKeyboardFit } from './visual-viewport.ts';

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

/** A dialog's side of [B15]: its form says whether it has changes; a close asks first if so. */
type DiscardGuard = {
  setDirty: (dirty: boolean) => void;
  /** Closes with `close`, at once when the form has no changes, else once 'Discard' is pressed. */
  requestClose: (close: () => void) => void;
};

const DiscardGuardContext = createContext<DiscardGuard | null>(null);

/**
 * [B15] A form in a dialog: while `dirty`, closing the dialog (Cancel, ✕, Escape, the backdrop,
 * the browser's Back) asks 'Discard changes?' first. Returns the form's Cancel: `onCancel`,
 * asked first when there are changes. Outside a dialog, `onCancel` itself.
 */
export function useDiscardGuard(dirty: boolean, onCancel: () => void): () => void {
  const guard = useContext(DiscardGuardContext);
  const cancel = useRef(onCancel);
  useLayoutEffect(() => {
    cancel.current = onCancel;
  });
  // As the form commits: an Escape right after a change already finds the form changed.
  useLayoutEffect(() => {
    guard?.setDirty(dirty);
  }, [guard, dirty]);
  useEffect(() => {
    if (!guard) return;
    // The browser's Back closes the form, as Cancel does (ui/back-closes-forms.ts).
    const stop = whileOpen(() => guard.requestClose(() => cancel.current()));
    return () => {
      stop();
      guard.setDirty(false);
    };
  }, [guard]);
  return useMemo(() => (guard ? () => guard.requestClose(() => cancel.current()) : () => cancel.current()), [guard]);
}

/**
 * A daisyUI modal on a real <dialog>, shown on top of the page (top-layer.ts): focus is kept
 * in it, Escape closes it, and it is named by its title. Content mounts only while open, so
 * forms start fresh every time.
 */
export function Modal({ open, title, onClose, children, size = 'md', sheet = size === 'md' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const unlock = useRef<() => void>(undefined);
  const titleId = useId();
  const closeRef = useRef(onClose);
  const openRef = useRef(open);
  useLayoutEffect(() => {
    closeRef.current = onClose;
    openRef.current = open;
  });
  // [B15] Whether the form in it has changes, and the close waiting for 'Discard' while asked.
  const dirty = useRef(false);
  const [asking, setAsking] = useState<{ close: () => void } | null>(null);
  const guard = useMemo<DiscardGuard>(
    () => ({
      setDirty: (value) => {
        dirty.current = value;
      },
      requestClose: (close) => {
        if (dirty.current) setAsking({ close });
        else close();
      },
    }),
    [],
  );
  const requestClose = () => guard.requestClose(() => closeRef.current());
  // [B13] Above the on-screen keyboard on iOS too (visual-viewport.ts).
  useKeyboardFit(ref, open && sheet);

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
        const dialog = event.currentTarget;
        hideFromTop(dialog); // Closed by Escape without a cancel (no recent tap or key).
        if (openRef.current && dirty.current && typeof dialog.showModal === 'function') {
          // [B15] Its form has changes: shown again, and the question asked.
          const release = lockPageScroll();
          unlock.current = release;
          dialog.addEventListener('close', release, { once: true });
          showOnTop(dialog);
          setAsking({ close: () => closeRef.current() });
          return;
        }
        onClose();
      }}
      onCancel={(event) => {
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        requestClose();
      }}
    >
      {open && (
        <div className={`modal-box ${size === 'sm' ? 'max-w-md' : 'max-w-2xl'} ${sheet ? 'modal-sheet' : ''}`}>
          <div className="modal-head">
            <h2 id={titleId} className="text-lg font-bold">
              {title}
            </h2>
            <button type="button" className="btn btn-sm btn-circle btn-ghost" aria-label="Close" onClick={requestClose}>
              <CloseIcon />
            </button>
          </div>
          <div className="modal-body">
            <DiscardGuardContext.Provider value={guard}>{children}</DiscardGuardContext.Provider>
          </div>
        </div>
      )}
      {asking && (
        <Modal open title="Discard changes?" onClose={() => setAsking(null)} size="sm">
          <p className="text-base-content/80">What you entered in this form has not been saved.</p>
          <div className="modal-action">
            {/* biome-ignore lint/a11y/noAutofocus: a stray Enter must keep the form, so Keep Editing takes the focus ([B2]) */}
            <button type="button" className="btn btn-ghost" onClick={() => setAsking(null)} autoFocus data-autofocus>
              Keep Editing
            </button>
            <button
              type="button"
              className="btn btn-error"
              onClick={() => {
                dirty.current = false;
                setAsking(null);
                asking.close();
              }}
            >
              Discard
            </button>
          </div>
        </Modal>
      )}
      <div className="modal-backdrop">
        {/* A tap beside the box: a close, asked first when its form has changes [B15]. */}
        <button type="button" tabIndex={-1} onClick={requestClose}>
          close
        </button>
      </div>
    </dialog>
  );
}
