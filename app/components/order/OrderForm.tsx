import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { orderPath } from '../../../core/catalog/order-path.ts';
import { formatHomePrice } from '../../../core/catalog/pricing.ts';
import type { OrderFormDetail } from '../../../core/orders/form-detail.ts';
import type { CreatedOrder } from '../../../core/orders/orders.ts';
import {
  ORDER_FORM_MESSAGES,
  type OrderFormErrors,
  type OrderFormValues,
  validateOrderForm,
} from '../../../core/orders/validation.ts';
import { VERIFICATION_MESSAGES } from '../../../core/verification/messages.ts';
import { ApiError, messageOf, postJson } from './api.ts';
import { INVALID_URL_MESSAGE, isTargetAccepted, useTargetVerification } from './target-verification.ts';

/** The spec's random 6-digit, left-padded client order id (section 9). */
export function newClientOrderId(): string {
  // A one-element array always has its element: the default never applies.
  const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(value % 1_000_000).padStart(6, '0');
}

type Field = keyof OrderFormValues;
const FIELDS: Field[] = ['name', 'email', 'comment'];
const EMPTY: OrderFormValues = { name: '', email: '', comment: '' };

/** Which field an order API message belongs to, so it shows under that field. */
function fieldOfMessage(message: string): Field | null {
  if (message === ORDER_FORM_MESSAGES.nameRequired || message === ORDER_FORM_MESSAGES.youtubeRequired) return 'name';
  if (message === ORDER_FORM_MESSAGES.emailRequired || message === ORDER_FORM_MESSAGES.emailInvalid) return 'email';
  if (message === ORDER_FORM_MESSAGES.commentRequired || message === 'Comment is required') return 'comment';
  for (const messages of Object.values(VERIFICATION_MESSAGES)) {
    if (message === messages.invalid || message === messages.required) return 'name';
  }
  return null;
}

export interface OrderFormProps {
  detail: OrderFormDetail;
  slug: string;
  type: string;
  /** The quantity in the address (highlighted at once, before the new detail arrives). */
  qty: number;
  /** The detail is being reloaded for another package: sending waits for it. */
  refreshing: boolean;
  onCreated: (order: CreatedOrder) => void;
  /** The server priced the package differently (409): reload the form detail. */
  onPriceChanged: () => void;
}

/** The order form: target, e-mail, package list, optional comments, Continue. */
export function OrderForm({ detail, slug, type, qty, refreshing, onCreated, onPriceChanged }: OrderFormProps) {
  const ids = useId();
  const [targetField, emailField, packages, commentField] = detail.fields;
  const commentShown = detail.commentRequired && !!commentField;
  const rules = { targetKind: detail.targetKind, commentRequired: commentShown };

  const [values, setValues] = useState<OrderFormValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [errors, setErrors] = useState<OrderFormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const verification = useTargetVerification(targetField.title, detail.targetKind);
  /** One id per form: a double click or a retry names the same order; renewed after a creation. */
  const clientOrderId = useRef<string | null>(null);
  const sending = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  const validate = (next: OrderFormValues) => validateOrderForm(next, rules);

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setFormError(null);
    if (field === 'name') verification.reset();
    // A field shows its rule's message once it has been left (or the form was sent); it updates as the buyer types.
    if (touched[field]) setErrors((current) => ({ ...current, [field]: validate(next)[field] }));
  };

  const leave = (field: Field) => {
    setTouched((current) => ({ ...current, [field]: true }));
    setErrors((current) => ({ ...current, [field]: validate(values)[field] }));
    if (field === 'name' && values.name.trim()) verification.verify(values.name);
  };

  const reset = () => {
    setValues(EMPTY);
    setTouched({});
    setErrors({});
    setFormError(null);
    verification.reset();
    clientOrderId.current = null;
  };

  const targetAccepted = isTargetAccepted(verification, values.name);
  const canContinue = targetAccepted && !submitting && !refreshing;

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current || !canContinue) return;
    const found = validate(values);
    setTouched({ name: true, email: true, comment: true });
    setErrors(found);
    const firstInvalid = FIELDS.find((field) => found[field]);
    if (firstInvalid) {
      inputs.current[firstInvalid]?.focus();
      return;
    }

    sending.current = true;
    setSubmitting(true);
    setFormError(null);
    clientOrderId.current ??= newClientOrderId();
    try {
      const created = await postJson<CreatedOrder>('/api/order', {
        type: detail.planType,
        slug: detail.serviceId,
        qty: detail.selected.qty,
        name: values.name.trim(),
        email: values.email.trim(),
        amount: detail.selected.charge,
        currency: 'USD',
        order_id: clientOrderId.current,
        ...(commentShown ? { comment: values.comment?.trim() ?? '' } : {}),
      });
      reset();
      onCreated(created);
    } catch (error) {
      const message = messageOf(error);
      const field = error instanceof ApiError && error.status === 400 ? fieldOfMessage(message) : null;
      if (field === 'name' && !Object.values(ORDER_FORM_MESSAGES).includes(message as never)) {
        verification.fail(message);
        inputs.current.name?.focus();
      } else if (field) {
        setErrors((current) => ({ ...current, [field]: message }));
        inputs.current[field]?.focus();
      } else {
        setFormError(message);
        if (error instanceof ApiError && error.status === 409) onPriceChanged();
      }
    } finally {
      sending.current = false;
      setSubmitting(false);
    }
  };

  const targetId = `${ids}-target`;
  const targetMessageId = `${ids}-target-message`;
  const emailId = `${ids}-email`;
  const emailErrorId = `${ids}-email-error`;
  const commentId = `${ids}-comment`;
  const commentErrorId = `${ids}-comment-error`;
  const formErrorId = `${ids}-form-error`;
  const continueHintId = `${ids}-continue-hint`;

  const state = verification.state;
  const targetError = errors.name ?? (state.status === 'error' ? state.message : undefined);
  const targetInvalid = !!targetError;
  const selectedQty = refreshing ? qty : detail.selected.qty;
  const selectedTier = packages.list.find((tier) => tier.qty === selectedQty);

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-describedby={formError ? formErrorId : undefined}
      className="space-y-6"
    >
      {/* Target: label, placeholder and icon come from the service lookup. */}
      <div>
        <label htmlFor={targetId} className="mb-1.5 block font-semibold text-gray-900">
          {targetField.title}
        </label>
        <div className="relative">
          <img
            src={targetField.icon}
            alt=""
            width={22}
            height={22}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2"
          />
          <input
            id={targetId}
            ref={(element) => {
              inputs.current.name = element;
            }}
            name="name"
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={targetField.placeholder}
            value={values.name}
            onChange={(event) => change('name', event.target.value)}
            onBlur={() => leave('name')}
            onKeyDown={(event) => {
              // Enter cannot send the form before the target is checked: check it instead.
              if (event.key === 'Enter' && !targetAccepted) {
                event.preventDefault();
                leave('name');
              }
            }}
            aria-invalid={targetInvalid}
            aria-describedby={targetMessageId}
            data-verification={state.status}
            className={`w-full rounded-xl border-2 bg-white py-3 pr-11 pl-11 text-gray-900 placeholder:text-gray-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
              targetInvalid
                ? 'border-red-700'
                : state.status === 'success'
                  ? 'border-green-700'
                  : 'border-gray-300 focus:border-brand-600'
            }`}
          />
          <span
            className="absolute top-1/2 right-3 -translate-y-1/2"
            data-testid="verification-icon"
            data-state={targetInvalid ? 'error' : state.status}
          >
            {state.status === 'loading' ? (
              <span
                aria-hidden="true"
                className="block h-5 w-5 animate-spin rounded-full border-2 border-brand-100 border-t-brand-700"
              />
            ) : targetInvalid ? (
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 text-red-700" fill="currentColor">
                <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17zm3.2 10.3-1.4 1.4L10 11.4l-1.8 1.8-1.4-1.4L8.6 10 6.8 8.2l1.4-1.4L10 8.6l1.8-1.8 1.4 1.4L11.4 10z" />
              </svg>
            ) : state.status === 'success' ? (
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 text-green-700" fill="currentColor">
                <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17zm-1.2 12.1L5 9.8l1.4-1.4 2.4 2.4 4.8-4.8L15 7.4z" />
              </svg>
            ) : null}
          </span>
        </div>
        <div id={targetMessageId} aria-live="polite" className="mt-1.5 min-h-5 text-sm" data-testid="target-message">
          {errors.name ? (
            <p className="font-medium text-red-800">{errors.name}</p>
          ) : state.status === 'error' ? (
            <>
              <p className="font-medium text-red-800">{state.message}</p>
              {state.invalid ? (
                <p className="font-medium text-red-800">{INVALID_URL_MESSAGE}</p>
              ) : (
                <p className="text-gray-700">Please try again.</p>
              )}
            </>
          ) : state.status === 'loading' ? (
            <p className="text-gray-700">Checking…</p>
          ) : state.status === 'success' ? (
            <p className="font-medium text-green-800">
              {state.unchecked
                ? 'We could not check it right now; our team will review it before delivery.'
                : 'Verified'}
            </p>
          ) : null}
        </div>
      </div>

      <div>
        <label htmlFor={emailId} className="mb-1.5 block font-semibold text-gray-900">
          {emailField.title}
        </label>
        <input
          id={emailId}
          ref={(element) => {
            inputs.current.email = element;
          }}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={emailField.placeholder}
          value={values.email}
          onChange={(event) => change('email', event.target.value)}
          onBlur={() => leave('email')}
          aria-invalid={!!errors.email}
          aria-describedby={errors.email ? emailErrorId : undefined}
          className={`w-full rounded-xl border-2 bg-white px-4 py-3 text-gray-900 placeholder:text-gray-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
            errors.email ? 'border-red-700' : 'border-gray-300 focus:border-brand-600'
          }`}
        />
        {errors.email ? (
          <p id={emailErrorId} className="mt-1.5 text-sm font-medium text-red-800">
            {errors.email}
          </p>
        ) : null}
        <p className="mt-1.5 text-xs text-gray-700">
          Your receipt and order updates go to this address. We never ask for your password.
        </p>
      </div>

      <fieldset>
        <legend className="mb-2 font-semibold text-gray-900">Choose your package</legend>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="package-list">
          {packages.list.map((tier) => {
            const active = tier.qty === selectedQty;
            return (
              <li key={tier.qty}>
                <Link
                  to={orderPath(slug, tier.qty, type)}
                  aria-current={active ? 'true' : undefined}
                  data-testid="package-option"
                  data-qty={tier.qty}
                  className={`block rounded-xl border-2 px-3 py-3 text-center transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                    active
                      ? 'border-brand-700 bg-brand-50 ring-1 ring-brand-700'
                      : 'border-gray-200 bg-white hover:border-brand-500'
                  }`}
                >
                  <span className="block font-bold text-gray-900">{tier.text}</span>
                  <span className="block text-sm text-gray-700">{formatHomePrice(tier.price)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </fieldset>

      {commentShown ? (
        <div>
          <label htmlFor={commentId} className="mb-1.5 block font-semibold text-gray-900">
            {commentField.title}
          </label>
          <textarea
            id={commentId}
            ref={(element) => {
              inputs.current.comment = element;
            }}
            name="comment"
            rows={7}
            placeholder={commentField.placeholder}
            value={values.comment}
            onChange={(event) => change('comment', event.target.value)}
            onBlur={() => leave('comment')}
            aria-invalid={!!errors.comment}
            aria-describedby={errors.comment ? commentErrorId : undefined}
            className={`w-full rounded-xl border-2 bg-white px-4 py-3 text-gray-900 placeholder:text-gray-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
              errors.comment ? 'border-red-700' : 'border-gray-300 focus:border-brand-600'
            }`}
          />
          {errors.comment ? (
            <p id={commentErrorId} className="mt-1.5 text-sm font-medium text-red-800">
              {errors.comment}
            </p>
          ) : null}
        </div>
      ) : null}

      <div className="flex items-center justify-between rounded-xl bg-gray-50 px-4 py-3">
        <span className="text-gray-800">
          <span className="block text-sm">
            {selectedTier?.text ?? detail.selected.text} · {detail.name} · {detail.planTitle}
          </span>
          <span className="text-sm text-gray-700">Total</span>
        </span>
        <span data-testid="order-total" className="text-2xl font-extrabold text-gray-900">
          {refreshing ? '…' : formatHomePrice(detail.selected.charge)}
        </span>
      </div>

      {formError ? (
        <p
          id={formErrorId}
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {formError}
        </p>
      ) : null}

      <div>
        <button
          type="submit"
          disabled={!canContinue}
          aria-describedby={!targetAccepted ? continueHintId : undefined}
          className="flex w-full items-center justify-center gap-2 rounded-xl bg-brand-700 px-6 py-3.5 text-lg font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-gray-400"
        >
          {submitting ? (
            <span
              aria-hidden="true"
              className="h-5 w-5 animate-spin rounded-full border-2 border-white/40 border-t-white"
            />
          ) : null}
          Continue
        </button>
        {!targetAccepted ? (
          <p id={continueHintId} className="mt-2 text-center text-sm text-gray-700">
            Continue becomes available once we have checked your {targetField.title}.
          </p>
        ) : null}
      </div>
      {submitting ? (
        <p role="status" className="sr-only">
          Creating your order
        </p>
      ) : null}
    </form>
  );
}
