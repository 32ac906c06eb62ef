import type { ComponentPropsWithRef, ReactNode } from 'react';

/** Form pieces shared by the store's forms (order, contact, order history lookup, admin login). */

export const inputClass = (invalid: boolean) =>
  `w-full rounded-xl border-2 bg-white px-4 py-3 text-gray-900 placeholder:text-gray-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
    invalid ? 'border-red-700' : 'border-gray-300 focus:border-brand-600'
  }`;

export const primaryButton =
  'inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-gray-500';

export const linkButton =
  'font-semibold text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-gray-700 disabled:no-underline';

// Lives with the other spinners so a page that only needs it (the blog's Load More) does not
// download the form fields.
export { ButtonSpinner } from './Spinner.tsx';

/** The red banner with the server's message (spec section 8). */
export function ErrorBanner({ message, testId }: { message: string; testId: string }) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
    >
      {message}
    </div>
  );
}

/** The field a control is bound to: its name, its remount key (a new key starts it afresh) and its first value. */
export interface BoundField {
  name: string;
  key: string | undefined;
  initialValue: string | undefined;
}

/** What every labelled field has, whatever its control: the label, the error under it, the ids that link them. */
interface FieldFrameProps {
  id: string;
  label: ReactNode;
  field: BoundField;
  /** The message shown under the control; none means the control is valid. */
  error: string | undefined;
  errorId: string;
  /** The error paragraph's `data-testid`, for the pages whose specs look for it. */
  errorTestId?: string | undefined;
  /** Ids of hints the control is always described by (after the error's, while there is one). */
  describedBy?: string | undefined;
  /** Classes added to the control's own (a monospace code field, room for a button). */
  controlClassName?: string | undefined;
  /** Shown under the error: a hint about the field. */
  hint?: ReactNode;
}

/** The props a field takes over from its control: everything but what the frame sets. */
type ControlProps<Element extends 'input' | 'textarea'> = Omit<
  ComponentPropsWithRef<Element>,
  'id' | 'name' | 'defaultValue' | 'className' | 'aria-invalid' | 'aria-describedby' | 'children'
>;

function describedByOf({ error, errorId, describedBy }: FieldFrameProps): string | undefined {
  return [error ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
}

function FieldFrame({
  frame,
  control,
  adornment,
}: {
  frame: FieldFrameProps;
  control: ReactNode;
  adornment?: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={frame.id} className="mb-1.5 block font-semibold text-gray-900">
        {frame.label}
      </label>
      {adornment ? (
        <div className="relative">
          {control}
          {adornment}
        </div>
      ) : (
        control
      )}
      {frame.error ? (
        <p id={frame.errorId} data-testid={frame.errorTestId} className="mt-1.5 text-sm font-medium text-red-800">
          {frame.error}
        </p>
      ) : null}
      {frame.hint}
    </div>
  );
}

/**
 * A labelled one-line input bound to a form field: `aria-invalid` and the red border while it
 * has an error, the error under it (linked by `aria-describedby`), and any input attributes
 * (type, autoComplete, ref, handlers) passed through. `adornment` sits over the input's right end
 * (the password's show button).
 */
export function TextField({
  id,
  label,
  field,
  error,
  errorId,
  errorTestId,
  describedBy,
  controlClassName,
  hint,
  adornment,
  ...input
}: FieldFrameProps & ControlProps<'input'> & { adornment?: ReactNode }) {
  const frame = { id, label, field, error, errorId, errorTestId, describedBy, controlClassName, hint };
  const control = (
    <input
      {...input}
      id={id}
      key={field.key}
      name={field.name}
      defaultValue={field.initialValue}
      aria-invalid={!!error}
      aria-describedby={describedByOf(frame)}
      className={controlClassName ? `${inputClass(!!error)} ${controlClassName}` : inputClass(!!error)}
    />
  );
  return <FieldFrame frame={frame} control={control} adornment={adornment} />;
}

/** The same as `TextField`, with a textarea. */
export function TextAreaField({
  id,
  label,
  field,
  error,
  errorId,
  errorTestId,
  describedBy,
  controlClassName,
  hint,
  ...textarea
}: FieldFrameProps & ControlProps<'textarea'>) {
  const frame = { id, label, field, error, errorId, errorTestId, describedBy, controlClassName, hint };
  const control = (
    <textarea
      {...textarea}
      id={id}
      key={field.key}
      name={field.name}
      defaultValue={field.initialValue}
      aria-invalid={!!error}
      aria-describedby={describedByOf(frame)}
      className={controlClassName ? `${inputClass(!!error)} ${controlClassName}` : inputClass(!!error)}
    />
  );
  return <FieldFrame frame={frame} control={control} />;
}
