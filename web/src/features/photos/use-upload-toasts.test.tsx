// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataProvider } from '../../data/context.tsx';
import type { PageData } from '../../data/page-data.ts';
import type { UploadEvent } from '../../data/photos/photo-uploader.ts';
import { ToastProvider } from '../../ui/Toast.tsx';
import { useUploadToasts } from './use-upload-toasts.ts';

/** The uploader's event stream, as the page sees it (the uploader itself: photo-uploader.test.ts). */
function uploadEvents() {
  const listeners = new Set<(event: UploadEvent) => void>();
  return {
    data: {
      uploads: {
        onEvent(listener: (event: UploadEvent) => void) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
    } as unknown as PageData,
    emit: (event: UploadEvent) => act(() => listeners.forEach((listener) => listener(event))),
  };
}

function Toasts() {
  useUploadToasts();
  return null;
}

describe('upload toasts', () => {
  afterEach(cleanup);

  it("[I7] [I3] a refused photo's toast adds the server's reason when it gave one (photo storage full)", async () => {
    const { data, emit } = uploadEvents();
    render(
      <ToastProvider>
        <DataProvider data={data}>
          <Toasts />
        </DataProvider>
      </ToastProvider>,
    );
    const reason = 'Photo storage full: your photos take 1023.9 MB of your 1024.0 MB, and this one needs 1.2 MB.';
    emit({ kind: 'failed', id: 'p1', message: 'Failed to process photo upload', reason });
    expect(await screen.findByText(`Failed to process photo upload: ${reason}`)).toBeTruthy();

    emit({ kind: 'failed', id: 'p2', message: 'Failed to get upload URL' });
    expect(await screen.findByText('Failed to get upload URL')).toBeTruthy();
  });
});
