import { useEffect } from 'react';
import { afterNextFrame } from '../lib/after-next-frame.ts';
import { useRanchData } from './context.tsx';

/**
 * A form that adds or edits a record (`open`) makes its write ready while it is open
 * (`PageData.prepareWrite`): during a start, the staging code loads while the person types,
 * not after they press Create or Update. Once the form is on screen, not with it: evaluating
 * that code (Yjs, the repositories' schemas) is a long task on a phone, and beside the tap it
 * would hold back the dialog (docs/web.md "Dialogs that open at once").
 */
export function usePrepareWrite(open: boolean): void {
  const { prepareWrite } = useRanchData();
  useEffect(() => {
    if (!open) return;
    let shown = true;
    void afterNextFrame().then(() => {
      if (shown) prepareWrite();
    });
    return () => {
      shown = false;
    };
  }, [open, prepareWrite]);
}
