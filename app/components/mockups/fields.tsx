/**
 * Small form pieces the mock-up forms share: a labelled field with its error (linked by
 * aria-describedby, so focusing the field reads the message), and the summary announced when a
 * submit finds errors.
 */
import type { ReactNode } from 'react';

export function FieldError({ id, message, testId }: { id: string; message: string | undefined; testId: string }) {
  if (!message) return null;
  return (
    <p id={id} data-testid={testId} className="mt-1.5 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}

/** `aria-describedby` for a field: its hint and, when shown, its error. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}

/** Announced (role="alert") when a submit finds errors; focus goes to the first invalid field. */
export function ErrorSummary({ count, testId }: { count: number; testId: string }) {
  return (
    <div role="alert" data-testid={testId} className="text-sm font-medium text-red-800">
      {count > 0 ? (count === 1 ? 'Check the highlighted field.' : `Check the ${count} highlighted fields.`) : null}
    </div>
  );
}

export function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block font-semibold text-gray-900">
      {children}
    </label>
  );
}
