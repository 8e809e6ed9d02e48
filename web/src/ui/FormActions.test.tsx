// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { FormActions } from './FormField.tsx';

afterEach(cleanup);

type Values = { name: string };

/** A form whose save waits until the test lets it go; `renders` counts the form's own renders. */
function harness() {
  const counted = { renders: 0 };
  let finish: (ok: boolean) => void = () => {};
  function NameForm() {
    counted.renders++;
    const { register, control, handleSubmit } = useForm<Values>({ defaultValues: { name: 'Storm' } });
    const save = () =>
      new Promise<void>((resolve, reject) => {
        finish = (ok) => (ok ? resolve() : reject(new Error('refused')));
      }).catch(() => {});
    return (
      <form onSubmit={handleSubmit(save)}>
        <input aria-label="Name" {...register('name')} />
        <FormActions submitLabel="Reset Password" submittingLabel="Resetting..." control={control} onCancel={() => {}} />
      </form>
    );
  }
  render(<NameForm />);
  return { counted, finish: (ok: boolean) => act(() => finish(ok)) };
}

describe('FormActions', () => {
  it('the submit button is disabled and says so while the form submits, and is back once the save is done', async () => {
    const { finish } = harness();
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    const busy = await screen.findByRole('button', { name: 'Resetting...' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    await finish(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reset Password' }).hasAttribute('disabled')).toBe(false));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('a submit renders the footer, not the form it closes (the horse form: every field and choice again, on a phone)', async () => {
    const { counted, finish } = harness();
    const before = counted.renders;
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await screen.findByRole('button', { name: 'Resetting...' });
    expect(counted.renders).toBe(before);
    await finish(true);
    await screen.findByRole('button', { name: 'Reset Password' });
  });

  it('[B9] a form that confirms what cannot be undone submits in the error colour; any other in primary', () => {
    function Footer({ destructive }: { destructive: boolean }) {
      const { control } = useForm<Values>({ defaultValues: { name: '' } });
      return (
        <FormActions submitLabel={destructive ? 'Cancel Sale' : 'Save'} control={control} onCancel={() => {}} destructive={destructive} />
      );
    }
    render(
      <>
        <Footer destructive />
        <Footer destructive={false} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Cancel Sale' }).className).toContain('btn-error');
    expect(screen.getByRole('button', { name: 'Cancel Sale' }).className).not.toContain('btn-primary');
    expect(screen.getByRole('button', { name: 'Save' }).className).toContain('btn-primary');
  });
});
