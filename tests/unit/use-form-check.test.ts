import { describe, expect, it } from 'vitest';
import {
  type FormCheckAction,
  type FormCheckState,
  errorOf,
  formCheckReducer,
  initialFormCheckState,
  splitRefusals,
} from '../../app/components/use-form-check.ts';

/**
 * The timing of the store's one form style (decision 052), as the pure reducer behind
 * `useFormCheck`: when a field's problem shows, what typing does, and where the server's
 * refusals go.
 */

type Field = 'email' | 'message';
const FIELDS: readonly Field[] = ['email', 'message'];

const run = (...actions: FormCheckAction<Field>[]): FormCheckState<Field> =>
  actions.reduce(formCheckReducer<Field>, initialFormCheckState<Field>());
const shownErrors = (state: FormCheckState<Field>) => FIELDS.map((field) => errorOf(state, field));

const empty = { email: 'Email is required', message: 'Message is required' };

describe('formCheckReducer', () => {
  it('shows nothing before a send, then every field at fault', () => {
    expect(shownErrors(run())).toEqual([undefined, undefined]);
    expect(shownErrors(run({ type: 'sent', fields: FIELDS, problems: empty }))).toEqual([
      'Email is required',
      'Message is required',
    ]);
  });

  it('shows a field left (checked on blur) and no other', () => {
    const state = run({ type: 'shown', field: 'email', problems: empty });
    expect(shownErrors(state)).toEqual(['Email is required', undefined]);
  });

  it('recheck: typing in a shown field follows the typing; typing in another changes nothing shown', () => {
    const sent = run({ type: 'sent', fields: ['email'], problems: empty });
    const typed = formCheckReducer(sent, {
      type: 'typed',
      field: 'email',
      problems: { email: 'Invalid Email ', message: 'Message is required' },
      whileTyping: 'recheck',
    });
    expect(shownErrors(typed)).toEqual(['Invalid Email ', undefined]);
    const fixed = formCheckReducer(typed, { type: 'typed', field: 'email', problems: {}, whileTyping: 'recheck' });
    expect(shownErrors(fixed)).toEqual([undefined, undefined]);
    const other = formCheckReducer(sent, { type: 'typed', field: 'message', problems: {}, whileTyping: 'recheck' });
    expect(other).toBe(sent);
  });

  it('clear: typing hides only that field until the next send', () => {
    let state = run({ type: 'sent', fields: FIELDS, problems: empty });
    state = formCheckReducer(state, { type: 'typed', field: 'email', problems: state.problems, whileTyping: 'clear' });
    expect(shownErrors(state)).toEqual([undefined, 'Message is required']);
    state = formCheckReducer(state, {
      type: 'sent',
      fields: FIELDS,
      problems: { email: 'Invalid Email ', message: 'Message is required' },
    });
    expect(shownErrors(state)).toEqual(['Invalid Email ', 'Message is required']);
  });

  it("puts the server's refusals under their fields until the field is typed in, over the check's view", () => {
    let state = run({ type: 'sent', fields: FIELDS, problems: {} });
    state = formCheckReducer(state, { type: 'refused', refusals: { email: 'This address cannot receive mail' } });
    expect(shownErrors(state)).toEqual(['This address cannot receive mail', undefined]);
    // Leaving the field keeps the refusal.
    expect(formCheckReducer(state, { type: 'shown', field: 'email', problems: {} })).toBe(state);
    // A later refusal adds to it.
    state = formCheckReducer(state, { type: 'refused', refusals: { message: 'Too long' } });
    expect(shownErrors(state)).toEqual(['This address cannot receive mail', 'Too long']);
    state = formCheckReducer(state, { type: 'typed', field: 'email', problems: {}, whileTyping: 'recheck' });
    expect(shownErrors(state)).toEqual([undefined, 'Too long']);
    // A new send starts from the check alone.
    state = formCheckReducer(state, { type: 'sent', fields: FIELDS, problems: {} });
    expect(shownErrors(state)).toEqual([undefined, undefined]);
  });

  it('shows a refusal on a field whose message typing had hidden', () => {
    let state = run({ type: 'sent', fields: FIELDS, problems: empty });
    state = formCheckReducer(state, { type: 'typed', field: 'email', problems: {}, whileTyping: 'clear' });
    state = formCheckReducer(state, { type: 'refused', refusals: { email: 'Taken' } });
    expect(errorOf(state, 'email')).toBe('Taken');
  });

  it('clears the picked fields, and resets to nothing shown', () => {
    let state = run(
      { type: 'sent', fields: FIELDS, problems: empty },
      { type: 'refused', refusals: { message: 'Too long' } },
    );
    state = formCheckReducer(state, { type: 'cleared', matches: (field) => field === 'message' });
    expect(shownErrors(state)).toEqual(['Email is required', undefined]);
    expect(shownErrors(formCheckReducer(state, { type: 'reset' }))).toEqual([undefined, undefined]);
  });
});

describe('splitRefusals', () => {
  it("keeps the form's fields (first message each) and hands back the rest for the banner", () => {
    const { onFields, elsewhere } = splitRefusals(FIELDS, [
      { field: 'email', message: 'Invalid Email ' },
      { field: 'email', message: 'second' },
      { field: 'website', message: 'Unexpected' },
    ]);
    expect(onFields).toEqual({ email: 'Invalid Email ' });
    expect(elsewhere).toEqual([{ field: 'website', message: 'Unexpected' }]);
  });
});
