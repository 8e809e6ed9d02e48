import { useCallback } from 'react';
import { useToast } from './Toast.tsx';

/** [B12] How long a delete's toast offers Undo. */
export const UNDO_MS = 10_000;

/**
 * [B12] The toast of a delete that can be undone: '<Thing> deleted successfully' with Undo for
 * UNDO_MS; Undo runs `restore` (the record written again, with its id and last fields) and
 * says how that went. `thing` is capitalised as the toast begins with it ('Horse').
 */
export function useUndoableDelete(): (thing: string, restore: () => Promise<unknown>, deletedText?: string) => void {
  const toast = useToast();
  return useCallback(
    (thing, restore, deletedText = `${thing} deleted successfully`) =>
      toast({
        title: 'Success',
        description: deletedText,
        variant: 'success',
        duration: UNDO_MS,
        action: {
          label: 'Undo',
          onClick: () =>
            void restore().then(
              () => toast({ title: 'Success', description: `${thing} restored`, variant: 'success' }),
              (error: unknown) => {
                console.error(error);
                toast({ title: 'Error', description: `Failed to restore ${thing.toLowerCase()}`, variant: 'destructive' });
              },
            ),
        },
      }),
    [toast],
  );
}
