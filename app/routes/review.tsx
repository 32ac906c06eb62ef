import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { ReviewPayloadInput } from '../../core/reviews/contracts.ts';
import { type ReviewFieldName, checkReviewForm } from '../../core/reviews/form-check.ts';
import {
  REVIEW_LINK_MESSAGES,
  REVIEW_NAME_MAX_LENGTH,
  REVIEW_TEXT_MAX_LENGTH,
  type ReviewLinkProblem,
} from '../../core/reviews/rules.ts';
import type { Route } from './+types/review';
import { ApiError, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { ButtonSpinner, ErrorBanner, TextAreaField, TextField, primaryButton } from '../components/form.tsx';
import { requestContext } from '../context.ts';
import { type RefusedField, useFormCheck } from '../components/use-form-check.ts';
import { privatePageMeta } from '../seo/meta.ts';

/**
 * The review page (decision 039): the completion e-mail links here with a single-use token. The
 * loader (server-rendered) says which order the link is about (service, quantity, date; never the
 * e-mail address) or why it cannot be used. The form (1–5 stars as a radio group, the text, a
 * first name or nickname) is in the store's form style (`useFormCheck`, decision 052), checked in
 * the browser with the API's rules without zod (core/reviews/form-check.ts, decision 036) and sent to `POST /api/reviews`, which spends the
 * token once. Private: noindex, never cached, and the token never appears in a log.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Review your order', { nofollow: true });

/** The page is about one customer's order and its link: no cache may keep it. */
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await context.get(requestContext).services.reviews.invitation(params.token);
  if (view.state !== 'open') return { state: view.state };
  const { order } = view;
  return {
    state: view.state,
    order: {
      orderNumber: order.orderNumber,
      serviceName: order.serviceName,
      quantity: order.quantity.toLocaleString('en-US'),
      // Formatted here, so the server's and the browser's render agree.
      orderedOn: new Date(order.orderedAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }),
    },
  };
}

/** What a submit came to: the refused fields (under their fields) or a banner, the link's problem, or sent. */
type ActionData =
  | { kind: 'refused'; refused: RefusedField[]; formError?: string }
  | { kind: 'link'; problem: ReviewLinkProblem }
  | { kind: 'sent'; notice: string };

const REVIEW_FIELDS = ['rating', 'text', 'name'] as const satisfies readonly ReviewFieldName[];
const isReviewField = (field: string) => (REVIEW_FIELDS as readonly string[]).includes(field);

const PROBLEM_BY_MESSAGE = new Map(
  (Object.entries(REVIEW_LINK_MESSAGES) as [ReviewLinkProblem, string][]).map(([problem, message]) => [
    message,
    problem,
  ]),
);

function refusal(error: unknown): ActionData {
  // 410: the link cannot be used (any more): the page says why, as the loader would have.
  if (error instanceof ApiError && error.status === 410)
    return { kind: 'link', problem: PROBLEM_BY_MESSAGE.get(error.message) ?? 'unknown' };
  const refused = error instanceof ApiError ? error.fieldErrors.filter(({ field }) => isReviewField(field)) : [];
  return refused.length > 0
    ? { kind: 'refused', refused }
    : { kind: 'refused', refused: [], formError: messageOf(error) };
}

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionData> {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  const check = checkReviewForm({
    token: params.token,
    rating: text('rating'),
    text: text('text'),
    name: text('name'),
  });
  if (!check.ok) {
    // The page sends only a form that passed this check; this keeps a scripted submit to the same rules.
    const { token, ...errors } = check.errors;
    if (token) return { kind: 'link', problem: 'unknown' };
    return { kind: 'refused', refused: Object.entries(errors).map(([field, message = '']) => ({ field, message })) };
  }
  try {
    const reply = await api.send<{ message: string }, ReviewPayloadInput>('POST', '/api/reviews', {
      body: check.payload,
      signal: request.signal,
    });
    return { kind: 'sent', notice: reply.message };
  } catch (error) {
    return refusal(error);
  }
}

const PROBLEM_TITLES: Record<ReviewLinkProblem, string> = {
  unknown: 'This review link does not work',
  used: 'This order has been reviewed',
  expired: 'This review link has expired',
};

function LinkProblem({ problem }: { problem: ReviewLinkProblem }) {
  return (
    <div data-testid="review-link-problem" data-problem={problem}>
      <h1 className="text-3xl font-extrabold text-gray-900">{PROBLEM_TITLES[problem]}</h1>
      <p className="mt-4 text-gray-700">{REVIEW_LINK_MESSAGES[problem]}</p>
      <p className="mt-4 text-gray-700">
        Nothing is wrong with your order. If you would still like to tell us how it went, or think this is a mistake,{' '}
        <Link to="/contact" className="font-semibold text-brand-700 underline hover:text-brand-800">
          write to our support team
        </Link>
        .
      </p>
    </div>
  );
}

const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';
const RATINGS = [1, 2, 3, 4, 5] as const;

/** 1–5 stars: a native radio group in a fieldset (arrow keys move, the legend names it). */
function StarRating({
  value,
  onChange,
  error,
  errorId,
}: {
  value: number;
  onChange: (rating: number) => void;
  error: string | undefined;
  errorId: string;
}) {
  return (
    <fieldset
      className="relative"
      aria-describedby={error ? errorId : undefined}
      data-invalid={error ? 'true' : undefined}
    >
      <legend className="mb-1.5 block font-semibold text-gray-900">Your rating</legend>
      <div className="flex gap-1" data-testid="review-rating">
        {RATINGS.map((rating) => (
          <label key={rating} className="relative cursor-pointer">
            <input
              type="radio"
              name="rating"
              value={rating}
              checked={value === rating}
              onChange={() => onChange(rating)}
              className="peer absolute inset-0 h-full w-full cursor-pointer opacity-0"
            />
            <span className="block rounded-lg p-1 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700">
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className={`h-9 w-9 ${rating <= value ? 'fill-amber-400' : 'fill-gray-300'}`}
              >
                <path d={STAR_PATH} />
              </svg>
            </span>
            <span className="sr-only">
              {rating} {rating === 1 ? 'star' : 'stars'}
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} data-testid="rating-error" className="mt-1.5 text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export default function ReviewPage({ loaderData, params }: Route.ComponentProps) {
  const ids = useId();
  const fetcher = useFetcher<ActionData>();
  const submitting = fetcher.state !== 'idle';
  const formRef = useRef<HTMLFormElement>(null);
  const [rating, setRating] = useState(0);
  /** Checked on submit; typing in a field (or choosing a rating) clears that field's error. */
  const check = useFormCheck({
    fields: REVIEW_FIELDS,
    check: (values) => {
      const result = checkReviewForm({ ...values, token: params.token });
      if (result.ok) return { ok: true as const, value: result.payload };
      const { token: _token, ...errors } = result.errors;
      return { ok: false as const, errors };
    },
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const reply = fetcher.data;
  const [handled, setHandled] = useState<ActionData | undefined>(undefined);
  if (reply && reply !== handled) {
    setHandled(reply);
    if (reply.kind === 'refused') check.refuseFields(reply.refused);
  }

  // After a refusal from the server, the first field in error takes the focus.
  useEffect(() => {
    if (handled?.kind !== 'refused' || handled.refused.length === 0) return;
    // A rating in error: its first radio (a radio group has no aria-invalid of its own).
    formRef.current?.querySelector<HTMLElement>('fieldset[data-invalid="true"] input, [aria-invalid="true"]')?.focus();
  }, [handled]);

  // A sent review first: React Router reloads this page's data after the submit, and the link
  // is spent by then ("used"), which must not replace the thank-you.
  let body;
  if (reply?.kind === 'sent') {
    body = (
      <div data-testid="review-sent">
        <h1 className="text-3xl font-extrabold text-gray-900">Thank you for your review</h1>
        <p
          role="status"
          className="mt-4 rounded-xl border border-green-200 bg-green-50 px-4 py-3 font-medium text-green-900"
        >
          {reply.notice}
        </p>
        <p className="mt-6">
          <Link to="/" className="font-semibold text-brand-700 underline hover:text-brand-800">
            Back to the store
          </Link>
        </p>
      </div>
    );
  } else if (loaderData.state !== 'open') {
    body = <LinkProblem problem={loaderData.state} />;
  } else if (reply?.kind === 'link') {
    body = <LinkProblem problem={reply.problem} />;
  } else {
    const { order } = loaderData;
    const formError = reply?.kind === 'refused' ? reply.formError : undefined;
    const errorOf = check.errorOf;
    const field = (name: ReviewFieldName) => ({ name, key: name, initialValue: '' });
    body = (
      <>
        <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900">
          Review your order
        </h1>
        <p className="mt-3 text-gray-700">
          Tell other customers how it went. Your review appears on our site with the name you choose once our team has
          checked it.
        </p>
        <dl
          data-testid="reviewed-order"
          className="mt-6 grid gap-3 rounded-2xl border border-gray-200 bg-gray-50 p-4 sm:grid-cols-3"
        >
          <div className="min-w-0">
            <dt className="text-sm font-semibold text-gray-600">Service</dt>
            <dd className="mt-1 font-semibold break-words text-gray-900">{order.serviceName}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-gray-600">Quantity</dt>
            <dd className="mt-1 font-semibold text-gray-900">{order.quantity}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-gray-600">Ordered on</dt>
            <dd className="mt-1 font-semibold text-gray-900">{order.orderedOn}</dd>
          </div>
        </dl>
        <fetcher.Form
          ref={formRef}
          method="post"
          noValidate
          onSubmit={(event) => {
            if (check.submit(event.currentTarget) === null) event.preventDefault();
          }}
          onInput={check.onInput}
          aria-labelledby={`${ids}-title`}
          className="mt-6 space-y-5"
        >
          <StarRating value={rating} onChange={setRating} error={errorOf('rating')} errorId={`${ids}-rating-error`} />
          <TextAreaField
            id={`${ids}-text`}
            label="Your review"
            field={field('text')}
            error={errorOf('text')}
            errorId={`${ids}-text-error`}
            errorTestId="text-error"
            rows={5}
            maxLength={REVIEW_TEXT_MAX_LENGTH}
            placeholder="How was the delivery? Did it do what you hoped?"
          />
          <TextField
            id={`${ids}-name`}
            label="Your first name or a nickname"
            field={field('name')}
            error={errorOf('name')}
            errorId={`${ids}-name-error`}
            errorTestId="name-error"
            type="text"
            autoComplete="given-name"
            maxLength={REVIEW_NAME_MAX_LENGTH}
            hint={<p className="mt-1.5 text-sm text-gray-600">Shown with your review. Your e-mail address never is.</p>}
          />
          {formError ? <ErrorBanner message={formError} testId="review-error" /> : null}
          <button type="submit" disabled={submitting} className={primaryButton}>
            {submitting ? <ButtonSpinner /> : null}
            {submitting ? 'Sending…' : 'Send review'}
          </button>
        </fetcher.Form>
      </>
    );
  }

  return <div className="mx-auto max-w-2xl px-4 py-12">{body}</div>;
}
