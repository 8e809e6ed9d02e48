import { useEffect } from 'react';
import { useRanchData } from './context.tsx';

/**
 * A form that adds a record (`adding`) makes its create's write ready while it is open
 * (`PageData.prepareCreate`): during a start, the staging code loads while the person types,
 * not after they press Create (docs/web.md "Dialogs that open at once").
 */
export function usePrepareCreate(adding: boolean): void {
  const { prepareCreate } = useRanchData();
  useEffect(() => {
    if (adding) prepareCreate();
  }, [adding, prepareCreate]);
}
