import { PlusIcon } from './icons.tsx';
import { useIsDesk } from './use-media-query.ts';

type AddButtonProps = { label: string; onClick: () => void; disabled?: boolean; small?: boolean };

/**
 * [B16] A list screen's main add action (Add Horse, Create Sale, …): on desks the screen's one
 * primary button, in its header; on phones a round floating button above the bottom
 * navigation, in the right thumb's reach, named by the same words.
 */
export function AddButton({ label, onClick, disabled = false, small = false }: AddButtonProps) {
  if (useIsDesk()) {
    return (
      <button type="button" className={`btn btn-primary ${small ? 'btn-sm' : ''}`} disabled={disabled} onClick={onClick}>
        {label}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-primary btn-circle fixed right-4 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-30 size-14 shadow-lg"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      data-testid="fab"
    >
      <PlusIcon className="size-7" />
    </button>
  );
}
