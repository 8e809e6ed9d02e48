import { type KeyboardEvent, type RefObject, useEffect } from 'react';

/**
 * The WAI-ARIA menu pattern's focus for a menu's items (`role="menuitem"` inside `menu`): the
 * first has the focus as the menu opens; ArrowDown and ArrowUp move it round, Home and End
 * jump to the ends. Returns the menu's keydown handler, which leaves other keys alone.
 */
export function useMenuFocus(menu: RefObject<HTMLElement | null>, open: boolean): (event: KeyboardEvent) => void {
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  // biome-ignore lint/correctness/useExhaustiveDependencies: items() reads the DOM when called; focus moves only when the menu opens
  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);
  return (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'ArrowDown'
        ? (at + 1) % list.length
        : event.key === 'ArrowUp'
          ? (at - 1 + list.length) % list.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? list.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    list[next]?.focus();
  };
}
