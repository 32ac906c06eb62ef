import { describe, expect, it } from 'vitest';
import { radioKeyTarget, radioProps } from '../../app/components/radio-group.ts';

describe("radio group keys (the home and service pages' choice groups)", () => {
  it('arrows move to the next and previous choice, wrapping round; Home and End to the ends', () => {
    expect(radioKeyTarget('ArrowRight', 0, 3)).toBe(1);
    expect(radioKeyTarget('ArrowDown', 2, 3)).toBe(0);
    expect(radioKeyTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(radioKeyTarget('ArrowUp', 1, 3)).toBe(0);
    expect(radioKeyTarget('Home', 2, 3)).toBe(0);
    expect(radioKeyTarget('End', 0, 3)).toBe(2);
  });

  it('leaves every other key (Tab, Space, Enter, letters) to the browser', () => {
    for (const key of ['Tab', ' ', 'Enter', 'a', 'PageDown']) expect(radioKeyTarget(key, 1, 3)).toBeNull();
    expect(radioKeyTarget('ArrowRight', 0, 0)).toBeNull();
  });

  it('only the checked choice is a Tab stop', () => {
    expect(radioProps(true)).toEqual({ role: 'radio', 'aria-checked': true, tabIndex: 0 });
    expect(radioProps(false)).toEqual({ role: 'radio', 'aria-checked': false, tabIndex: -1 });
  });
});
