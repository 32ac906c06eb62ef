import type { KeyboardEvent } from 'react';

/**
 * The keyboard of a group of choices shown as buttons (the WAI-ARIA radio group pattern): the
 * group is one Tab stop, its selected choice; the arrow keys move to the previous or next choice
 * and select it (wrapping round), Home and End to the first and last. Without this each choice
 * was its own Tab stop, and the home page's Buy Now sat two dozen Tabs away.
 */

/** The index the key moves to from `index` among `count` choices, or null when the key is not the group's. */
export function radioKeyTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * A choice's keydown (on the choices, the focusable part, not on the group): selects the choice
 * the key moves to and puts focus on it.
 */
export function moveInRadioGroup<T>(
  event: KeyboardEvent<HTMLElement>,
  values: readonly T[],
  onSelect: (value: T) => void,
): void {
  const group = event.currentTarget.closest('[role="radiogroup"]');
  const radios = group ? Array.from(group.querySelectorAll<HTMLElement>('[role="radio"]')) : [];
  const from = radios.indexOf(event.currentTarget);
  const to = from < 0 ? null : radioKeyTarget(event.key, from, radios.length);
  const value = to === null ? undefined : values[to];
  if (to === null || value === undefined) return;
  event.preventDefault();
  onSelect(value);
  radios[to]?.focus();
}

/** A choice's props: checked or not, and only the checked one in the Tab order. */
export function radioProps(checked: boolean) {
  return { role: 'radio', 'aria-checked': checked, tabIndex: checked ? 0 : -1 } as const;
}
