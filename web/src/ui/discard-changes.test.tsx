// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { closeTopForm } from './back-closes-forms.ts';
import { FormActions } from './FormField.tsx';
import { Modal } from './Modal.tsx';

afterEach(cleanup);

/** A screen with an Add Horse–like dialog: one field, Cancel and Create. */
function Screen({ onSave = () => {} }: { onSave?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>{open ? 'form open' : 'form closed'}</p>
      <Modal open={open} title="Add New Horse" onClose={() => setOpen(false)}>
        <NameForm
          onSave={() => {
            onSave();
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
        />
      </Modal>
    </>
  );
}

function NameForm({ onSave, onCancel }: { onSave: () => void; onCancel: () => void }) {
  const { register, control, handleSubmit } = useForm({ defaultValues: { name: '' } });
  return (
    <form onSubmit={handleSubmit(onSave)}>
      <input aria-label="Name" {...register('name')} />
      <FormActions submitLabel="Create Horse" control={control} onCancel={onCancel} />
    </form>
  );
}

const form = () => screen.getByRole('dialog', { name: 'Add New Horse' });
const question = () => screen.queryByRole('dialog', { name: 'Discard changes?' });
const typeName = (value: string) => fireEvent.input(screen.getByLabelText('Name'), { target: { value } });
const pressEscape = () => fireEvent(form(), new Event('cancel', { cancelable: true }));

/** The ways out of a dialog the person did not mean as "throw it away". */
const closes = {
  Escape: pressEscape,
  '✕': () => fireEvent.click(screen.getByRole('button', { name: 'Close' })),
  Cancel: () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })),
  backdrop: () => fireEvent.click(screen.getByRole('button', { name: 'close', hidden: true })),
  Back: () => act(() => expect(closeTopForm()).toBe(true)),
};

describe('[B15] closing a form with changes', () => {
  for (const [way, close] of Object.entries(closes)) {
    it(`${way} on a filled form asks 'Discard changes?'; Keep Editing keeps every character, Discard closes`, async () => {
      render(<Screen />);
      typeName('Storm Chaser');
      close();
      expect(await screen.findByRole('dialog', { name: 'Discard changes?' })).toBeTruthy();
      expect(screen.getByText('What you entered in this form has not been saved.')).toBeTruthy();
      expect(screen.getByText('form open')).toBeTruthy();
      // Keep Editing has the focus ([B2]): a stray Enter keeps the form.
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep Editing' }));

      fireEvent.click(screen.getByRole('button', { name: 'Keep Editing' }));
      expect(question()).toBeNull();
      expect(screen.getByText('form open')).toBeTruthy();
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Storm Chaser');

      close();
      fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
      expect(screen.getByText('form closed')).toBeTruthy();
      expect(question()).toBeNull();
    });

    it(`${way} on a pristine form closes it at once`, () => {
      render(<Screen />);
      close();
      expect(question()).toBeNull();
      expect(screen.getByText('form closed')).toBeTruthy();
    });
  }

  it('a form typed back to how it opened closes at once: nothing would be lost', () => {
    render(<Screen />);
    typeName('Storm');
    typeName('');
    pressEscape();
    expect(question()).toBeNull();
    expect(screen.getByText('form closed')).toBeTruthy();
  });

  it('Escape in the question answers Keep Editing, not Discard', async () => {
    render(<Screen />);
    typeName('Storm');
    pressEscape();
    fireEvent(await screen.findByRole('dialog', { name: 'Discard changes?' }), new Event('cancel', { cancelable: true }));
    expect(question()).toBeNull();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Storm');
  });

  it('saving a filled form closes it without asking, and Back then has no form to close', async () => {
    const saved = vi.fn();
    render(<Screen onSave={saved} />);
    typeName('Storm');
    fireEvent.click(screen.getByRole('button', { name: 'Create Horse' }));
    await vi.waitFor(() => expect(screen.getByText('form closed')).toBeTruthy());
    expect(saved).toHaveBeenCalledTimes(1);
    expect(question()).toBeNull();
    expect(closeTopForm()).toBe(false);
  });

  it('a dialog without a form (details) closes at once and leaves Back to the page', () => {
    const close = vi.fn();
    render(
      <Modal open title="Horse Details" onClose={close}>
        <p>details</p>
      </Modal>,
    );
    expect(closeTopForm()).toBe(false);
    fireEvent(screen.getByRole('dialog', { name: 'Horse Details' }), new Event('cancel', { cancelable: true }));
    expect(close).toHaveBeenCalledTimes(1);
  });
});
