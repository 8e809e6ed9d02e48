import type { ReactNode } from 'react';
import { Modal } from '../../ui/Modal.tsx';

type ConfirmModalProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** An in-page confirm (named by its title, keyboard reachable) instead of window.confirm. */
export function ConfirmModal({ open, title, children, confirmLabel, destructive = false, onConfirm, onCancel }: ConfirmModalProps) {
  return (
    <Modal open={open} title={title} onClose={onCancel}>
      <div className="space-y-2">{children}</div>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={`btn ${destructive ? 'btn-error' : 'btn-primary'}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
