/**
 * What a service sells (decision 057): a one-off package, automatic likes or daily followers, and
 * a subscription kind's terms (the period; for automatic likes the posts it covers and the delay
 * after each post). The words under the choice say what a tier's quantity then means, so the owner
 * prices "likes on each new post" or "followers a day", not a one-off quantity.
 */
import { useId } from 'react';
import {
  POST_DELAY_MINUTES,
  SERVICE_KINDS,
  SERVICE_KIND_LABELS,
  type ServiceKind,
} from '../../../core/subscriptions/terms.ts';
import type { ServiceInput } from '../../../core/catalogue/service-document.ts';
import { delayLabel } from '../../content/subscriptions.ts';
import { adminFieldClass } from '../list-parts.tsx';
import { FieldMessage, ServiceTextField } from './ServiceFields.tsx';
import type { ServiceDraftAction } from './service-draft.ts';

/** What one tier's quantity is for each kind, as the tier editor labels it. */
export const QUANTITY_LABELS: Readonly<Record<ServiceKind, string>> = {
  package: 'Quantity',
  automatic_likes: 'Likes on each new post',
  daily_followers: 'Followers a day',
};

const KIND_EXPLANATIONS: Readonly<Record<ServiceKind, string>> = {
  package: 'A tier’s quantity is delivered once, gradually, to the link or username the buyer gives.',
  automatic_likes:
    'A tier’s quantity is the likes on each new post the account publishes during the period, up to the posts below; the supplier needs a Subscriptions service. Sold for a username, priced per period.',
  daily_followers:
    'A tier’s quantity is the followers delivered each day of the period (a drip-feed: one run a day). Sold for a username, priced per period.',
};

/** Whole numbers only; anything else stays in the draft as NaN, which the schema refuses by name. */
const wholeNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

export function KindFields({
  service,
  dispatch,
  errorOf,
}: {
  service: ServiceInput;
  dispatch: (action: ServiceDraftAction) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const id = useId();
  const kindError = errorOf('kind');
  const delayError = errorOf('terms.delayMinutes');
  const terms = service.terms;
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 md:col-span-2" data-testid="service-kind">
      <legend className="sr-only">What the service sells</legend>
      <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
        What it sells
        <select
          name="kind"
          value={service.kind}
          onChange={(event) => dispatch({ type: 'kind', kind: event.target.value as ServiceKind })}
          aria-invalid={kindError !== undefined || undefined}
          aria-describedby={kindError !== undefined ? `${id}-kind-error` : `${id}-kind-hint`}
          className={`${adminFieldClass} mt-1 font-normal md:max-w-md`}
        >
          {SERVICE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {SERVICE_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        <span id={`${id}-kind-hint`} className="mt-1 text-xs font-normal text-gray-700" data-testid="kind-hint">
          {KIND_EXPLANATIONS[service.kind]}
        </span>
        <FieldMessage id={`${id}-kind-error`} message={kindError} />
      </label>
      {terms ? (
        <div className="grid gap-3 sm:grid-cols-3">
          <ServiceTextField
            label="Period (days)"
            field="terms.periodDays"
            value={Number.isNaN(terms.periodDays) ? '' : String(terms.periodDays)}
            inputMode="numeric"
            error={errorOf('terms.periodDays')}
            hint="What one purchase covers; a renewal starts when it ends."
            onChange={(value) => dispatch({ type: 'terms', change: { periodDays: wholeNumber(value) } })}
          />
          {service.kind === 'automatic_likes' ? (
            <>
              <ServiceTextField
                label="Posts per period"
                field="terms.posts"
                value={terms.posts === undefined || Number.isNaN(terms.posts) ? '' : String(terms.posts)}
                inputMode="numeric"
                error={errorOf('terms.posts')}
                hint="The most new posts one period serves."
                onChange={(value) => dispatch({ type: 'terms', change: { posts: wholeNumber(value) } })}
              />
              <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
                Delay after each post
                <select
                  name="terms.delayMinutes"
                  value={terms.delayMinutes ?? 0}
                  onChange={(event) =>
                    dispatch({ type: 'terms', change: { delayMinutes: Number(event.target.value) } })
                  }
                  aria-invalid={delayError !== undefined || undefined}
                  aria-describedby={delayError !== undefined ? `${id}-delay-error` : `${id}-delay-hint`}
                  className={`${adminFieldClass} mt-1 font-normal`}
                >
                  {POST_DELAY_MINUTES.map((minutes) => (
                    <option key={minutes} value={minutes}>
                      {delayLabel(minutes)}
                    </option>
                  ))}
                </select>
                <span id={`${id}-delay-hint`} className="mt-1 text-xs font-normal text-gray-700">
                  How long the supplier waits after a post before the likes start.
                </span>
                <FieldMessage id={`${id}-delay-error`} message={delayError} />
              </label>
            </>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
