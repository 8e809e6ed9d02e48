import { useCombobox } from 'downshift';
import { type Ref, useMemo, useRef, useState } from 'react';

/** One thing a picker offers: the value the form keeps and the text a person reads. */
export type Choice = { id: string; label: string };

/** At most this many choices are in the list at once; typing narrows the rest. */
export const SHOWN_CHOICES = 50;

type Props = {
  id: string;
  name: string;
  choices: readonly Choice[];
  /** The chosen id, '' for none. */
  value: string;
  /** What the empty field says ('Select a horse'). */
  placeholder: string;
  /** What the choices are, for the button that lists them ('horses': "Show horses"). */
  noun: string;
  onChange: (id: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  invalid?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
};

/**
 * A choice among many, typed to narrow (docs/web.md): a combobox (Downshift's
 * `useCombobox`, the WAI-ARIA pattern) whose list holds at most SHOWN_CHOICES matches. A
 * native select renders every option: a ranch's thousands of horses froze a phone each time
 * it opened, and again on every change of the form.
 */
export function ChoicePicker({ id, name, choices, value, placeholder, noun, onChange, onBlur, inputRef, invalid }: Props) {
  const [typed, setTyped] = useState('');
  // Nothing is built per choice as the form opens (5,000 of them in the payment form): the
  // chosen one is looked up, and the lowered labels are made at the first search.
  const selected = useMemo(() => (value ? (choices.find((choice) => choice.id === value) ?? null) : null), [choices, value]);
  const lowered = useRef<{ of: readonly Choice[]; labels: string[] } | null>(null);
  const matching = useMemo(() => {
    const wanted = typed.trim().toLocaleLowerCase();
    // The chosen label in the field is not a search: the whole list is offered again.
    if (!wanted || (selected && typed === selected.label)) return { shown: choices.slice(0, SHOWN_CHOICES), count: choices.length };
    if (lowered.current?.of !== choices)
      lowered.current = { of: choices, labels: choices.map((choice) => choice.label.toLocaleLowerCase()) };
    const shown: Choice[] = [];
    let count = 0;
    lowered.current.labels.forEach((label, index) => {
      if (!label.includes(wanted)) return;
      count += 1;
      if (shown.length < SHOWN_CHOICES) shown.push(choices[index]!);
    });
    return { shown, count };
  }, [typed, choices, selected]);

  const { isOpen, highlightedIndex, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } = useCombobox<Choice>({
    items: matching.shown,
    itemToString: (choice) => choice?.label ?? '',
    itemToKey: (choice) => choice?.id,
    selectedItem: selected,
    inputId: id,
    onInputValueChange: ({ inputValue, type }) => {
      setTyped(inputValue);
      // Emptying the field takes the choice away, as the placeholder then says.
      if (type === useCombobox.stateChangeTypes.InputChange && inputValue === '' && value !== '') onChange('');
    },
    onSelectedItemChange: ({ selectedItem }) => onChange(selectedItem?.id ?? ''),
    // Leaving the field, or closing its list with Escape, without choosing shows the choice
    // held again: typed text must not stand in the field while the form holds another horse.
    stateReducer: (_state, { type, changes }) =>
      type === useCombobox.stateChangeTypes.InputBlur || type === useCombobox.stateChangeTypes.InputKeyDownEscape
        ? { ...changes, inputValue: changes.selectedItem?.label ?? '' }
        : changes,
  });
  const more = matching.count - matching.shown.length;

  return (
    <div className="w-full">
      {/* Input and button joined by hand: daisyUI's join is left out (styles.css). */}
      <div className="flex w-full">
        <input
          className="input w-full rounded-e-none focus:z-10"
          placeholder={placeholder}
          // Named by the form's <label for>, not by a label id of Downshift's own.
          {...getInputProps({
            name,
            onBlur,
            ref: inputRef,
            'aria-labelledby': undefined,
            ...invalid,
            onKeyDown: (event) => {
              // With the list closed, Escape is the dialog's (it closes), not Downshift's
              // (it would empty the field and take the choice away).
              if (event.key === 'Escape' && !isOpen)
                (event.nativeEvent as { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
            },
          })}
        />
        <button type="button" className="btn -ms-px rounded-s-none" {...getToggleButtonProps({ 'aria-label': `Show ${noun}` })}>
          <span aria-hidden="true">{isOpen ? '▴' : '▾'}</span>
        </button>
      </div>
      <ul
        className={`menu w-full flex-nowrap overflow-y-auto rounded-box bg-base-100 shadow ${isOpen ? 'mt-1 max-h-60 border border-base-300' : 'hidden'}`}
        {...getMenuProps({ 'aria-label': noun })}
      >
        {isOpen &&
          matching.shown.map((choice, index) => (
            <li key={choice.id} {...getItemProps({ item: choice, index })}>
              <span className={`${highlightedIndex === index ? 'menu-active' : ''} ${choice.id === value ? 'font-semibold' : ''}`}>
                {choice.label}
              </span>
            </li>
          ))}
      </ul>
      {isOpen && (matching.count === 0 || more > 0) && (
        <p className="label px-1 text-xs">
          {matching.count === 0
            ? `No ${noun} match "${typed.trim()}"`
            : `${matching.shown.length} of ${matching.count.toLocaleString()} shown; type to narrow`}
        </p>
      )}
    </div>
  );
}
