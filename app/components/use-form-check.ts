import { type FocusEvent, type FormEvent, useReducer } from 'react';
import type { FormCheck } from '../../core/form-check.ts';

/**
 * The store's one form style (decision 052), public and admin: the form's fields are named controls,
 * a `check` gives each field's first problem worded as the API's zod schema words it, and the
 * server's `errors: [{ field, message }]` land under the same fields. Public pages pass a plain
 * check held to the schema by a property test (zod and conform do not fit their 120 KB first-load
 * budget, decisions 036 and 037); admin pages and the lazy billing step check with the schema
 * itself (`schemaCheck`, ./schema-check.ts). A field shows its problem once it has been left
 * (`validateOn: 'blur'`) or once the form was sent (`'submit'`); a refused send focuses the first
 * field at fault; a server refusal shows until its field is typed in again. The timing is a
 * pure reducer (`formCheckReducer`, unit-tested in tests/unit/use-form-check.test.ts).
 */

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** One refused field of an API reply (`errors: [{ field, message }]`, server/api/errors.ts). */
export interface RefusedField {
  field: string;
  message: string;
}

/**
 * After a field shows its problem, typing in it either follows the typing (`recheck`: the message
 * changes or goes as the value does) or hides that field's message until the next send (`clear`:
 * the contact and review pages, whose spec says typing clears the field's error).
 */
export type WhileTyping = 'recheck' | 'clear';

export interface FormCheckState<Field extends string> {
  /** Fields whose problem is shown: left (checked on blur), validated, or every field after a send. */
  shown: ReadonlySet<Field>;
  /** Fields typed in since the last send, whose message is hidden (`clear` only). */
  hidden: ReadonlySet<Field>;
  /** The check's problems at the last check. */
  problems: FieldErrors<Field>;
  /** The server's refusals, each shown until its field is typed in. */
  refusals: FieldErrors<Field>;
}

export type FormCheckAction<Field extends string> =
  /** A field was typed in; `problems` is the check of the form as it is now. */
  | { type: 'typed'; field: Field; problems: FieldErrors<Field>; whileTyping: WhileTyping }
  /** A field was left (forms checked on blur) or asked to show its problem (Enter in it). */
  | { type: 'shown'; field: Field; problems: FieldErrors<Field> }
  /** The form was sent: every field shows its problem; earlier refusals and hidden messages go. */
  | { type: 'sent'; fields: readonly Field[]; problems: FieldErrors<Field> }
  /** The server refused these fields (added to any refusal already shown). */
  | { type: 'refused'; refusals: FieldErrors<Field> }
  /** These fields' messages go, whatever their source (a plan moved: messages named by its old place). */
  | { type: 'cleared'; matches: (field: Field) => boolean }
  /** A fresh start (a new step of the same form, a form emptied after a success). */
  | { type: 'reset' };

export function initialFormCheckState<Field extends string>(): FormCheckState<Field> {
  return { shown: new Set(), hidden: new Set(), problems: {}, refusals: {} };
}

const withField = <Field extends string>(set: ReadonlySet<Field>, field: Field): ReadonlySet<Field> =>
  set.has(field) ? set : new Set([...set, field]);

function withoutRefusal<Field extends string>(refusals: FieldErrors<Field>, field: Field): FieldErrors<Field> {
  if (refusals[field] === undefined) return refusals;
  const rest = { ...refusals };
  delete rest[field];
  return rest;
}

export function formCheckReducer<Field extends string>(
  state: FormCheckState<Field>,
  action: FormCheckAction<Field>,
): FormCheckState<Field> {
  switch (action.type) {
    case 'typed': {
      const refusals = withoutRefusal(state.refusals, action.field);
      if (action.whileTyping === 'clear') {
        const hidden = state.shown.has(action.field) ? withField(state.hidden, action.field) : state.hidden;
        return refusals === state.refusals && hidden === state.hidden ? state : { ...state, refusals, hidden };
      }
      if (!state.shown.has(action.field)) return refusals === state.refusals ? state : { ...state, refusals };
      return { ...state, refusals, problems: action.problems };
    }
    case 'shown':
      // A refusal stays until the field is typed in: leaving it does not swap it for the check's view.
      if (state.refusals[action.field] !== undefined) return state;
      return { ...state, shown: withField(state.shown, action.field), problems: action.problems };
    case 'sent':
      return { shown: new Set(action.fields), hidden: new Set(), problems: action.problems, refusals: {} };
    case 'refused': {
      let shown = state.shown;
      let hidden = state.hidden;
      for (const field of Object.keys(action.refusals) as Field[]) {
        shown = withField(shown, field);
        if (hidden.has(field)) hidden = new Set([...hidden].filter((other) => other !== field));
      }
      return { ...state, shown, hidden, refusals: { ...state.refusals, ...action.refusals } };
    }
    case 'cleared': {
      const keep = (field: Field) => !action.matches(field);
      const refusals = Object.fromEntries(
        Object.entries(state.refusals).filter(([field]) => keep(field as Field)),
      ) as FieldErrors<Field>;
      return { ...state, shown: new Set([...state.shown].filter(keep)), refusals };
    }
    case 'reset':
      return initialFormCheckState();
  }
}

/** The message under `field` now: the server's refusal first, then the check's problem once shown. */
export function errorOf<Field extends string>(state: FormCheckState<Field>, field: Field): string | undefined {
  const refusal = state.refusals[field];
  if (refusal !== undefined) return refusal;
  if (!state.shown.has(field) || state.hidden.has(field)) return undefined;
  return state.problems[field];
}

/**
 * The server's refused fields split in two: those this form shows (the first message of each,
 * under its field) and the rest (for the form's banner: a refusal still needs saying).
 */
export function splitRefusals<Field extends string>(
  fields: readonly Field[],
  refused: readonly RefusedField[],
): { onFields: FieldErrors<Field>; elsewhere: RefusedField[] } {
  const onFields: FieldErrors<Field> = {};
  const elsewhere: RefusedField[] = [];
  for (const refusal of refused) {
    const field = fields.find((name) => name === refusal.field);
    if (field === undefined) elsewhere.push(refusal);
    else onFields[field] ??= refusal.message;
  }
  return { onFields, elsewhere };
}

export interface FormCheckOptions<Field extends string, Value> {
  /** The checked fields' names, in the form's order (the controls' `name`s). */
  fields: readonly Field[];
  /** Each field's text as the form holds it; forms that keep a draft in state may ignore it. */
  check: (values: Record<Field, string>) => FormCheck<Field, Value>;
  validateOn: 'blur' | 'submit';
  /** After a field shows its problem, typing re-checks it (the default) or hides it until the next send. */
  whileTyping?: WhileTyping;
}

export interface FormCheckHandle<Field extends string, Value> {
  /** The message under a field now, if any. */
  errorOf: (field: Field) => string | undefined;
  /** For the form's `onInput` and `onBlur` (both bubble from its fields). */
  onInput: (event: FormEvent<HTMLFormElement>) => void;
  onBlur: (event: FocusEvent<HTMLFormElement>) => void;
  /** On sending: every field shows its problem; the checked values when there is none. */
  submit: (form: HTMLFormElement) => Value | null;
  /** Shows one field's problem now (Enter in a field that cannot send yet). */
  validate: (form: HTMLFormElement, field: Field) => void;
  /** The server's refusals, under their fields. */
  refuse: (errors: FieldErrors<Field>) => void;
  /** Hides the messages of the fields `matches` picks, until they are checked or refused again. */
  clear: (matches: (field: Field) => boolean) => void;
  /**
   * An API reply's refused fields: those of this form go under their fields (and the first takes
   * the focus when `form` is given); the others are returned for the form's banner.
   */
  refuseFields: (refused: readonly RefusedField[], form?: HTMLFormElement | null) => RefusedField[];
  /** Starts afresh: nothing shown (a new step of the same form). */
  reset: () => void;
}

const problemsOf = <Field extends string>(check: FormCheck<Field, unknown>): FieldErrors<Field> =>
  check.ok ? {} : check.errors;

/** A named control of the form (a radio group's first radio), for the focus. */
function controlOf(form: HTMLFormElement, name: string): HTMLElement | null {
  const control = form.elements.namedItem(name);
  if (control instanceof RadioNodeList) {
    const first = control[0];
    return first instanceof HTMLElement ? first : null;
  }
  return control instanceof HTMLElement ? control : null;
}

export function useFormCheck<Field extends string, Value>({
  fields,
  check,
  validateOn,
  whileTyping = 'recheck',
}: FormCheckOptions<Field, Value>): FormCheckHandle<Field, Value> {
  const [state, dispatch] = useReducer(formCheckReducer<Field>, undefined, initialFormCheckState<Field>);

  const read = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const values = {} as Record<Field, string>;
    for (const field of fields) {
      const value = data.get(field);
      values[field] = typeof value === 'string' ? value : '';
    }
    return values;
  };
  const fieldOf = (target: EventTarget): Field | undefined => {
    const name = (target as { name?: unknown }).name;
    return fields.find((field) => field === name);
  };
  const focusFirst = (form: HTMLFormElement, errors: FieldErrors<Field>) => {
    const first = fields.find((field) => errors[field] !== undefined);
    if (first !== undefined) controlOf(form, first)?.focus();
  };
  const refuse = (errors: FieldErrors<Field>) => dispatch({ type: 'refused', refusals: errors });

  return {
    errorOf: (field) => errorOf(state, field),
    onInput: (event) => {
      const field = fieldOf(event.target);
      if (field === undefined) return;
      const recheck = whileTyping === 'recheck' && state.shown.has(field);
      const problems = recheck ? problemsOf(check(read(event.currentTarget))) : state.problems;
      dispatch({ type: 'typed', field, problems, whileTyping });
    },
    onBlur: (event) => {
      const field = fieldOf(event.target);
      if (field === undefined || validateOn !== 'blur' || state.refusals[field] !== undefined) return;
      dispatch({ type: 'shown', field, problems: problemsOf(check(read(event.currentTarget))) });
    },
    submit: (form) => {
      const result = check(read(form));
      dispatch({ type: 'sent', fields, problems: problemsOf(result) });
      if (result.ok) return result.value;
      focusFirst(form, result.errors);
      return null;
    },
    validate: (form, field) => {
      dispatch({ type: 'shown', field, problems: problemsOf(check(read(form))) });
    },
    refuse,
    clear: (matches) => dispatch({ type: 'cleared', matches }),
    refuseFields: (refused, form) => {
      const { onFields, elsewhere } = splitRefusals(fields, refused);
      if (Object.keys(onFields).length > 0) {
        refuse(onFields);
        if (form) focusFirst(form, onFields);
      }
      return elsewhere;
    },
    reset: () => dispatch({ type: 'reset' }),
  };
}
