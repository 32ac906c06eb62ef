import { type FocusEvent, type FormEvent, useState } from 'react';
import type { FormCheck } from '../../core/form-check.ts';

/**
 * The browser side of a form checked by a plain core check (decision 037: zod and conform cost
 * a form page about 40 KB of its 120 KB first-load budget). It keeps conform's timing: a field
 * shows its problem once it has been left (`validateOn: 'blur'`) or once the form was sent
 * (`'submit'`), and from then on follows the typing; a refused send focuses the first field at
 * fault; the server's refusals show under their fields until that field is typed in again.
 */

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export interface FormCheckOptions<Field extends string, Value> {
  /** The checked fields' names, in the form's order. */
  fields: readonly Field[];
  check: (values: Record<Field, string>) => FormCheck<Field, Value>;
  validateOn: 'blur' | 'submit';
}

export interface FormCheckState<Field extends string, Value> {
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
  /** Starts afresh: nothing shown (a new step of the same form). */
  reset: () => void;
}

const problemsOf = <Field extends string>(check: FormCheck<Field, unknown>): FieldErrors<Field> =>
  check.ok ? {} : check.errors;

export function useFormCheck<Field extends string, Value>({
  fields,
  check,
  validateOn,
}: FormCheckOptions<Field, Value>): FormCheckState<Field, Value> {
  const [shown, setShown] = useState<ReadonlySet<Field>>(() => new Set());
  const [problems, setProblems] = useState<FieldErrors<Field>>({});
  const [refusals, setRefusals] = useState<FieldErrors<Field>>({});

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
  const show = (more: readonly Field[]) => {
    if (more.every((field) => shown.has(field))) return;
    setShown(new Set([...shown, ...more]));
  };

  return {
    errorOf: (field) => refusals[field] ?? (shown.has(field) ? problems[field] : undefined),
    onInput: (event) => {
      const field = fieldOf(event.target);
      if (!field) return;
      if (refusals[field]) {
        const rest = { ...refusals };
        delete rest[field];
        setRefusals(rest);
      }
      if (shown.has(field)) setProblems(problemsOf(check(read(event.currentTarget))));
    },
    onBlur: (event) => {
      const field = fieldOf(event.target);
      if (!field || validateOn !== 'blur' || refusals[field]) return;
      show([field]);
      setProblems(problemsOf(check(read(event.currentTarget))));
    },
    submit: (form) => {
      const result = check(read(form));
      setShown(new Set(fields));
      setRefusals({});
      setProblems(problemsOf(result));
      if (result.ok) return result.value;
      const first = fields.find((field) => result.errors[field]);
      const control = first ? form.elements.namedItem(first) : null;
      if (control instanceof HTMLElement) control.focus();
      return null;
    },
    validate: (form, field) => {
      show([field]);
      setProblems(problemsOf(check(read(form))));
    },
    refuse: (errors) => {
      setRefusals(errors);
      show(fields.filter((field) => errors[field]));
    },
    reset: () => {
      if (shown.size > 0) setShown(new Set());
      setProblems({});
      setRefusals({});
    },
  };
}
