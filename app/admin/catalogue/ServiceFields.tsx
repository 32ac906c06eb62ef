/**
 * The service editor's own controls (decision 044): labelled text fields named by their field path,
 * so the form style's check (app/components/use-form-check.ts, decision 052) finds the control to
 * focus and hides a message while its field is typed in (the message under it is linked by
 * `aria-describedby`), and the settings: what the buyer enters, a required comment, the status.
 */
import { useId } from 'react';
import { TARGET_KINDS, type TargetKind } from '../../../core/catalogue/types.ts';
import type { ServiceInput } from '../../../core/catalogue/service-document.ts';
import { adminFieldClass } from '../list-parts.tsx';
import type { ServiceDraftAction } from './service-draft.ts';

const TARGET_LABELS: Record<TargetKind, string> = {
  youtube_video_url: 'YouTube video URL',
  instagram_username: 'Instagram username',
  instagram_post_url: 'Instagram post URL',
  tiktok_username: 'TikTok username',
  tiktok_post_url: 'TikTok video URL',
};

/** The message shown under a field, if any. */
export function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} className="mt-1 block text-sm font-medium text-red-800">
      {message}
    </span>
  ) : null;
}

/** A labelled text input with its message (the check's or the server's) under it. */
export function ServiceTextField(props: {
  label: string;
  field: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  disabled?: boolean;
  hint?: string;
  className?: string;
  inputMode?: 'decimal' | 'numeric';
}) {
  const id = useId();
  const hasError = props.error !== undefined;
  return (
    <label className={`flex min-w-0 flex-col text-sm font-semibold text-gray-900 ${props.className ?? ''}`}>
      {props.label}
      <input
        name={props.field}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        disabled={props.disabled}
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        inputMode={props.inputMode}
        className={`${adminFieldClass} mt-1 w-full font-normal disabled:bg-gray-100`}
        data-field={props.field}
      />
      {props.hint ? (
        <span id={`${id}-hint`} className="mt-1 text-xs font-normal text-gray-700">
          {props.hint}
        </span>
      ) : null}
      <FieldMessage id={`${id}-error`} message={props.error} />
    </label>
  );
}

/** What the buyer enters, whether a comment is required, and draft or published. */
export function ServiceSettings({
  service,
  dispatch,
  errorOf,
}: {
  service: ServiceInput;
  dispatch: (action: ServiceDraftAction) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const id = useId();
  const targetError = errorOf('targetKind');
  // A subscription serves an account (its new posts, its followers): it is bought for a username.
  const targets = service.kind === 'package' ? TARGET_KINDS : TARGET_KINDS.filter((kind) => kind.endsWith('_username'));
  return (
    <>
      <label className="flex flex-col text-sm font-semibold text-gray-900">
        The buyer enters
        <select
          name="targetKind"
          value={service.targetKind}
          onChange={(event) => dispatch({ type: 'field', key: 'targetKind', value: event.target.value as TargetKind })}
          aria-invalid={targetError !== undefined || undefined}
          aria-describedby={targetError !== undefined ? `${id}-target-error` : undefined}
          className={`${adminFieldClass} mt-1 font-normal`}
        >
          {targets.map((kind) => (
            <option key={kind} value={kind}>
              {TARGET_LABELS[kind]}
            </option>
          ))}
        </select>
        <FieldMessage id={`${id}-target-error`} message={targetError} />
      </label>
      <label className="flex items-center gap-2 text-sm font-semibold text-gray-900">
        <input
          type="checkbox"
          checked={service.commentRequired}
          onChange={(event) => dispatch({ type: 'field', key: 'commentRequired', value: event.target.checked })}
          className="h-5 w-5"
        />
        Comment required
      </label>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="font-semibold text-gray-900">Status</legend>
        {(['draft', 'published'] as const).map((status) => (
          <label key={status} className="flex items-center gap-2 text-gray-900">
            <input
              type="radio"
              name="status"
              value={status}
              checked={service.status === status}
              onChange={() => dispatch({ type: 'field', key: 'status', value: status })}
              className="h-5 w-5"
            />
            {status === 'draft' ? 'Draft (hidden from the store)' : 'Published'}
          </label>
        ))}
      </fieldset>
    </>
  );
}
