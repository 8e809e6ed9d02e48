import type { ReactNode } from 'react';
import { Modal } from './Modal.tsx';

type ConfirmDialogProps = {
  open: boolean;
  /** The question; also the dialog's accessible name. */
  title: string;
  /** More about what happens, under the title. */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  /** E.g. while the answer would be refused anyway. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A yes/no question in a real dialog: Escape or Cancel says no; focus starts on Cancel. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  destructive = true,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal open={open} title={title} onClose={onCancel} size="sm">
      {children && <div className="text-base-content/80">{children}</div>}
      <div className="modal-action">
        {/* biome-ignore lint/a11y/noAutofocus: a stray Enter must not confirm a deletion, so Cancel takes the focus */}
        <button type="button" className="btn btn-ghost" onClick={onCancel} autoFocus data-autofocus>
          {cancelLabel}
        </button>
        <button type="button" className={`btn ${destructive ? 'btn-error' : 'btn-primary'}`} disabled={confirmDisabled} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
