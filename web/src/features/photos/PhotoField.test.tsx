// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { RanchData } from '../../data/ranch-data.ts';
import { DataProvider } from '../../data/context.tsx';
import { useTestData } from '../../../test/render-screen.tsx';
import { PhotoField } from './PhotoField.tsx';

let data: RanchData;
useTestData((opened) => {
  data = opened;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A touch screen (`pointer: coarse`) or a desk. */
function onScreen(touch: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: touch && query === '(pointer: coarse)',
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

/** The field in a form with a name typed, as in Add Horse. */
function Form() {
  const [photoUrl, setPhotoUrl] = useState('');
  return (
    <DataProvider data={data}>
      <input aria-label="Name" defaultValue="Storm Chaser" />
      <PhotoField id="photo" value={photoUrl} onChange={setPhotoUrl} horseName="Storm Chaser" />
      <output aria-label="photoUrl">{photoUrl}</output>
    </DataProvider>
  );
}

/** HEIC bytes: kept as they are where the browser cannot decode them (jsdom decodes nothing). */
const heic = () => {
  const bytes = new Uint8Array(3000);
  bytes.set([0, 0, 0, 0x18, ...[...'ftypheic'].map((c) => c.charCodeAt(0))]);
  return new File([bytes], 'IMG_0007.HEIC', { type: 'image/heic' });
};

const choose = (file: File) => fireEvent.change(screen.getByLabelText('Photo'), { target: { files: [file] } });
const photoUrl = () => screen.getByLabelText('photoUrl').textContent;

describe('[I10] the photo field', () => {
  it('offers Take Photo (the camera) and Choose Photo (gallery or files) on a touch screen; only the gallery input forces nothing', () => {
    onScreen(true);
    const { container } = render(<Form />);
    expect(screen.getByRole('button', { name: 'Take Photo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose Photo' })).toBeTruthy();
    const inputs = [...container.querySelectorAll('input[type=file]')];
    expect(inputs.map((input) => input.getAttribute('capture'))).toEqual(['environment', null]);
    // Choose Photo opens the input without capture: the phone offers its gallery.
    const clicked = vi.spyOn(screen.getByLabelText('Photo') as HTMLInputElement, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Choose Photo' }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect((screen.getByLabelText('Photo') as HTMLInputElement).hasAttribute('capture')).toBe(false);
  });

  it('offers Choose Photo alone on a desk', () => {
    onScreen(false);
    render(<Form />);
    expect(screen.queryByRole('button', { name: 'Take Photo' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose Photo' })).toBeTruthy();
  });

  it("shows the chosen photo's name and sizes, never 'No file chosen'", async () => {
    onScreen(true);
    render(<Form />);
    choose(heic());
    expect(await screen.findByText('Photo ready: IMG_0007.HEIC (3 KB → 3 KB)')).toBeTruthy();
    expect(photoUrl()).toMatch(/^outbox:/);
    expect(screen.queryByText(/No file chosen/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo' }));
    expect(photoUrl()).toBe('');
    expect(screen.getByText('One photo, up to 10 MB after compression.')).toBeTruthy();
  });

  it('refuses a text file renamed .jpg with a clear message, keeping the photo and the fields it had', async () => {
    onScreen(false);
    render(<Form />);
    choose(heic());
    await screen.findByText(/^Photo ready/);
    const before = photoUrl();

    choose(new File(['Feed: 2 flakes of hay'], 'notes.jpg', { type: 'image/jpeg' }));
    expect(
      await screen.findByText('notes.jpg: This file could not be read as a photo. Choose a JPEG, PNG, WebP or HEIC image.'),
    ).toBeTruthy();
    expect(photoUrl()).toBe(before);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Storm Chaser');
  });
});
