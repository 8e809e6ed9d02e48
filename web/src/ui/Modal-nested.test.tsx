// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Modal } from './Modal.tsx';

afterEach(cleanup);

describe('Modal', () => {
  it('[K3] closing a dialog opened inside another (Record Care in Horse Details) leaves the outer one open', () => {
    const closeOuter = vi.fn();
    const closeInner = vi.fn();
    render(
      <Modal open title="Horse Details" onClose={closeOuter}>
        <Modal open title="Record Care" onClose={closeInner}>
          <p>form</p>
        </Modal>
      </Modal>,
    );
    const inner = screen.getByRole('dialog', { name: 'Record Care' });
    fireEvent(inner, new Event('close'));
    fireEvent(inner, new Event('cancel', { cancelable: true }));
    expect(closeInner).toHaveBeenCalledTimes(2);
    expect(closeOuter).not.toHaveBeenCalled();
    fireEvent(screen.getByRole('dialog', { name: 'Horse Details' }), new Event('close'));
    expect(closeOuter).toHaveBeenCalledTimes(1);
  });
});
