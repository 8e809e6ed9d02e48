// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Modal } from './Modal.tsx';

/**
 * jsdom has no visual viewport: this one behaves as iOS Safari's does under its on-screen
 * keyboard (the window keeps its height, the visual viewport shrinks and scrolls).
 */
class IosViewport extends EventTarget {
  height = 844;
  offsetTop = 0;
  scale = 1;
  move(height: number, offsetTop: number, scale = 1) {
    Object.assign(this, { height, offsetTop, scale });
    this.dispatchEvent(new Event('resize'));
  }
}

let view: IosViewport;
const original = Object.getOwnPropertyDescriptor(window, 'visualViewport');

function showSheet() {
  view = new IosViewport();
  Object.defineProperty(window, 'visualViewport', { configurable: true, value: view });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 844 });
  render(
    <Modal open title="Add New Horse" onClose={() => {}}>
      <p>Form</p>
    </Modal>,
  );
  return screen.getByRole('dialog', { hidden: true });
}

afterEach(() => {
  cleanup();
  if (original) Object.defineProperty(window, 'visualViewport', original);
  else Reflect.deleteProperty(window, 'visualViewport');
});

describe('[B13] a sheet above the on-screen keyboard where the layout keeps its height (iOS)', () => {
  it('fits the dialog to what the keyboard leaves, follows it, and lets go as it goes down', () => {
    const dialog = showSheet();
    expect(dialog.hasAttribute('data-keyboard')).toBe(false);

    view.move(500, 120);
    expect(dialog.hasAttribute('data-keyboard')).toBe(true);
    expect(dialog.style.getPropertyValue('--visual-top')).toBe('120px');
    expect(dialog.style.getPropertyValue('--visual-height')).toBe('500px');

    view.offsetTop = 200;
    view.dispatchEvent(new Event('scroll'));
    expect(dialog.style.getPropertyValue('--visual-top')).toBe('200px');

    view.move(844, 0);
    expect(dialog.hasAttribute('data-keyboard')).toBe(false);
    expect(dialog.style.getPropertyValue('--visual-height')).toBe('');
  });

  it('leaves a pinch zoom and a toolbar sliding away alone', () => {
    const dialog = showSheet();
    view.move(422, 300, 2);
    expect(dialog.hasAttribute('data-keyboard')).toBe(false);
    view.move(790, 0);
    expect(dialog.hasAttribute('data-keyboard')).toBe(false);
  });

  it('does nothing for a confirmation, which is no sheet', () => {
    view = new IosViewport();
    Object.defineProperty(window, 'visualViewport', { configurable: true, value: view });
    render(
      <Modal open title="Delete?" onClose={() => {}} size="sm">
        <p>Sure?</p>
      </Modal>,
    );
    view.move(500, 0);
    expect(screen.getByRole('dialog', { hidden: true }).hasAttribute('data-keyboard')).toBe(false);
  });
});
