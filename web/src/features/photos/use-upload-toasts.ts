import { useEffect } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { useToast } from '../../ui/Toast.tsx';

/**
 * [I3] toasts for the photo outbox, on whatever screen is open when an upload ends:
 * 'Photo uploaded successfully' once per photo, and the two failure texts only for real
 * refusals, followed by the server's reason when it gave one ([I7] 'Photo storage full: …').
 * Being offline or a server away is not a failure: the photo waits quietly.
 */
export function useUploadToasts(): void {
  const { uploads } = useRanchData();
  const toast = useToast();
  useEffect(
    () =>
      uploads.onEvent((event) => {
        if (event.kind === 'uploaded') toast({ title: 'Success', description: 'Photo uploaded successfully', variant: 'success' });
        if (event.kind === 'failed') {
          const description = event.reason ? `${event.message}: ${event.reason}` : event.message;
          toast({ title: 'Error', description, variant: 'destructive' });
        }
      }),
    [uploads, toast],
  );
}
