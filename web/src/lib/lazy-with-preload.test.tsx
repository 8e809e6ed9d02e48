// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { lazyWithPreload } from './lazy-with-preload.ts';

afterEach(cleanup);

/** A module load the test settles by hand. */
function deferredLoad() {
  const calls: { resolve(): void; reject(error: Error): void }[] = [];
  const Form = ({ label }: { label: string }) => {
    const [text, setText] = useState('');
    return <input aria-label={label} value={text} onChange={(event) => setText(event.target.value)} />;
  };
  const load = () =>
    new Promise<typeof Form>((resolve, reject) => {
      calls.push({ resolve: () => resolve(Form), reject });
    });
  return { load, calls };
}

const shell = (children: React.ReactNode) => <Suspense fallback={<p>Loading</p>}>{children}</Suspense>;

describe('lazyWithPreload', () => {
  it('renders a preloaded component in the render that asks for it, with no fallback', async () => {
    const { load, calls } = deferredLoad();
    const Dialog = lazyWithPreload(load);
    const preloaded = Dialog.preload();
    calls[0]!.resolve();
    await preloaded;
    // A synchronous render: the form is there at once, as the dialog is when Add Horse is tapped.
    act(() => {
      render(shell(<Dialog label="Name" />));
    });
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('without a preload, suspends until the module arrives, then shows it; the module loads once', async () => {
    const { load, calls } = deferredLoad();
    const Dialog = lazyWithPreload(load);
    act(() => {
      render(shell(<Dialog label="Name" />));
    });
    expect(screen.getByText('Loading')).toBeTruthy();
    void Dialog.preload();
    expect(calls).toHaveLength(1);
    await act(async () => calls[0]!.resolve());
    expect(await screen.findByLabelText('Name')).toBeTruthy();
  });

  it('a failed load is tried again by the next preload, and by the next load()', async () => {
    const { load, calls } = deferredLoad();
    const Dialog = lazyWithPreload(load);
    const first = Dialog.preload();
    calls[0]!.reject(new Error('offline'));
    await expect(first).rejects.toThrow('offline');
    const second = Dialog.load();
    expect(calls).toHaveLength(2);
    calls[1]!.reject(new Error('offline'));
    await expect(second).rejects.toThrow('offline');
    const third = Dialog.preload();
    expect(calls).toHaveLength(3);
    calls[2]!.resolve();
    await third;
    act(() => {
      render(shell(<Dialog label="Name" />));
    });
    expect(screen.getByLabelText('Name')).toBeTruthy();
  });

  it('a load() during a preload waits for it: the module loads once', async () => {
    const { load, calls } = deferredLoad();
    const Dialog = lazyWithPreload(load);
    const preloaded = Dialog.preload();
    // Add Horse tapped while the preload's steps are under way.
    let opened = false;
    const opening = Dialog.load().then(() => {
      opened = true;
    });
    expect(calls).toHaveLength(1);
    await Promise.resolve();
    expect(opened).toBe(false);
    calls[0]!.resolve();
    await Promise.all([preloaded, opening]);
    act(() => {
      render(shell(<Dialog label="Name" />));
    });
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('once preloaded, a load() or a render loads nothing again', async () => {
    const { load, calls } = deferredLoad();
    const Dialog = lazyWithPreload(load);
    const preloaded = Dialog.preload();
    calls[0]!.resolve();
    await preloaded;
    await Dialog.load();
    act(() => {
      render(shell(<Dialog label="Name" />));
    });
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(calls).toHaveLength(1);
  });
});
