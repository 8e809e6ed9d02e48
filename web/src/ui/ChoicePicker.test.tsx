// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { type Choice, ChoicePicker, SHOWN_CHOICES } from './ChoicePicker.tsx';

afterEach(cleanup);

const HORSES: Choice[] = Array.from({ length: 5000 }, (_, i) => ({ id: `h${i}`, label: `Horse ${String(i).padStart(4, '0')}` }));

/** A form's field: a label, the picker, and what the form holds. */
function Field({ choices = HORSES, initial = '' }: { choices?: Choice[]; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <div>
      <label htmlFor="horse">Horse</label>
      <ChoicePicker
        id="horse"
        name="horseId"
        choices={choices}
        value={value}
        placeholder="Select a horse"
        noun="horses"
        onChange={setValue}
      />
      <span data-testid="held">{value}</span>
    </div>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Horse' }) as HTMLInputElement;
const held = () => screen.getByTestId('held').textContent;
const options = () =>
  within(screen.getByRole('listbox', { name: 'horses' }))
    .queryAllByRole('option')
    .map((option) => option.textContent);

describe('ChoicePicker', () => {
  it('lists no more than it shows at once, and says how to find the rest', () => {
    render(<Field />);
    expect(options()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Show horses' }));
    expect(options()).toHaveLength(SHOWN_CHOICES);
    expect(options()[0]).toBe('Horse 0000');
    expect(screen.getByText('50 of 5,000 shown; type to narrow')).toBeTruthy();
  });

  it('narrows to what is typed, whatever its case, and keeps the choice tapped', () => {
    render(<Field />);
    fireEvent.change(input(), { target: { value: 'horse 499' } });
    expect(options()).toEqual(Array.from({ length: 10 }, (_, i) => `Horse 499${i}`));
    expect(screen.queryByText(/type to narrow/)).toBeNull();
    fireEvent.click(screen.getByRole('option', { name: 'Horse 4997' }));
    expect(held()).toBe('h4997');
    expect(input().value).toBe('Horse 4997');
    expect(options()).toEqual([]);
  });

  it('is chosen from the keyboard, and emptying the field takes the choice away', () => {
    render(<Field />);
    fireEvent.change(input(), { target: { value: '0042' } });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(held()).toBe('h42');
    expect(input().value).toBe('Horse 0042');
    fireEvent.change(input(), { target: { value: '' } });
    expect(held()).toBe('');
  });

  it('shows the choice held again when the field is left, or its list closed, without choosing', () => {
    render(<Field initial="h7" />);
    fireEvent.change(input(), { target: { value: 'Horse 12' } });
    fireEvent.blur(input());
    expect(input().value).toBe('Horse 0007');
    fireEvent.change(input(), { target: { value: 'Horse 12' } });
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(options()).toEqual([]);
    expect(input().value).toBe('Horse 0007');
    expect(held()).toBe('h7');
  });

  it('leaves Escape to the dialog once its list is closed, the choice kept', () => {
    render(<Field initial="h7" />);
    const pressed = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    input().dispatchEvent(pressed);
    expect(pressed.defaultPrevented).toBe(false);
    expect(input().value).toBe('Horse 0007');
    expect(held()).toBe('h7');
  });

  it('shows the choice the form starts with and says when nothing matches', () => {
    render(<Field initial="h7" />);
    expect(input().value).toBe('Horse 0007');
    fireEvent.change(input(), { target: { value: 'Comet' } });
    expect(options()).toEqual([]);
    expect(screen.getByText('No horses match "Comet"')).toBeTruthy();
    expect(held()).toBe('h7');
  });
});
