import { useEffect } from 'react';
import { afterNextFrame } from '../lib/after-next-frame.ts';
import { useRanchData } from './context.tsx';

/**
 * A form that adds a record (`adding`) makes its create's write ready while it is open
 * (`PageData.prepareCreate`): during a start, the staging code loads while the person types,
 * not after they press Create. Once the form is on screen, not with it: evaluating that code
 * (Yjs, the repositories' schemas) took 50–360 ms of a phone's main thread (CPU 4×), and
 * beside the tap it held back the dialog (docs/web.md "Dialogs that open at once").
 */
export function usePrepareCreate(adding: boolean): void {
  const { prepareCreate } = useRanchData();
  useEffect(() => {
    if (!adding) return;
    let open = true;
    void afterNextFrame().then(() => {
      if (open) prepareCreate();
    });
    return () => {
      open = false;
    };
  }, [adding, prepareCreate]);
}
