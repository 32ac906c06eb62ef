import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatHomePrice } from '../../../core/catalogue/pricing.ts';
import { TierPrice } from '../TierPrice.tsx';
import { PROCESSING_FEE_LABEL, processingFee } from '../../../core/orders/charges.ts';
import type { CreateOrderPayload, CreatedOrder } from '../../../core/orders/contracts.ts';
import type { OrderFormDetail } from '../../../core/orders/form-detail.ts';
import { type CheckedOrderForm, type OrderFormCheckField, checkOrderForm } from '../../../core/orders/form-check.ts';
import { ApiError, api, messageOf } from '../../api/client.ts';
import { TextAreaField, TextField } from '../form.tsx';
import { useFormCheck } from '../use-form-check.ts';
import { readOrderDraft, saveOrderDraft } from './order-draft.ts';
import { QuantityDropdown } from './QuantityDropdown.tsx';
import { LaneNotice, PaymentMethodChooser, SecureCheckoutNote, SubscriptionTerms } from './lazy-extras.tsx';
import { INVALID_URL_MESSAGE, isTargetAccepted, useTargetVerification } from './target-verification.ts';

/** The spec's random 6-digit, left-padded client order id (section 9). */
export function newClientOrderId(): string {
  // A one-element array always has its element: the default never applies.
  const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(value % 1_000_000).padStart(6, '0');
}

const FORM_FIELDS = ['name', 'email', 'comment'] as const satisfies readonly OrderFormCheckField[];
const isFormField = (name: string): name is OrderFormCheckField => (FORM_FIELDS as readonly string[]).includes(name);
/** The method the store marks as default (the card method), which the chooser starts on. */
function defaultMethodOf(detail: OrderFormDetail): string {
  return (detail.paymentMethods.find((method) => method.default) ?? detail.paymentMethods[0])?.id ?? '';
}

/** A field as TextField binds it: uncontrolled, empty at first (a draft is written in after hydration). */
const bound = (name: OrderFormCheckField) => ({ name, key: undefined, initialValue: undefined });

export interface OrderFormProps {
  detail: OrderFormDetail;
  slug: string;
  type: string;
  /** The quantity being shown: the address's, highlighted at once while its detail loads. */
  qty: number;
  /** The detail is being reloaded for another package: sending waits for it. */
  refreshing: boolean;
  /** Payments go through the sandbox: the note by the pay button says so. */
  sandbox: boolean;
  onCreated: (order: CreatedOrder) => void;
  /** The server priced the package differently (409): reload the form detail. */
  onPriceChanged: () => void;
}

/**
 * The order form: target, e-mail, package list, optional comments, Continue. Its rules are the
 * package's `orderFormSchema` (core/orders/validation.ts), the one order creation applies, in
 * plain code (core/orders/form-check.ts, decision 037): a field shows its message once it has
 * been left (or the form was sent) and follows the typing from then on. The server's refusals
 * come back per field and land on that field.
 */
export function OrderForm({ detail, slug, type, qty, refreshing, sandbox, onCreated, onPriceChanged }: OrderFormProps) {
  const ids = useId();
  const [targetField, emailField, packages, commentField] = detail.fields;
  const commentShown = detail.commentRequired && !!commentField;
  const rules = useMemo(
    () => ({ targetKind: detail.targetKind, commentRequired: commentShown }),
    [detail.targetKind, commentShown],
  );
  const check = useFormCheck({
    fields: FORM_FIELDS,
    check: (values) => checkOrderForm(values, rules),
    validateOn: 'blur',
  });
  /** The target as typed (Continue waits for its check). */
  const [targetValue, setTargetValue] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const verification = useTargetVerification(targetField.title, detail.targetKind, detail.serviceId);
  /** A renewal link's single-use token (`?renewal=`), sent with the order it opens. */
  const renewal = useRef<string | null>(null);
  const [methodId, setMethodId] = useState(() => defaultMethodOf(detail));
  /**
   * One id per order the form sends: a double click, a retry, or Continue again after closing the
   * payment window (with the same or another method) names the same order, which the store moves
   * to the method chosen. Another package, target, e-mail or comment is another order: a new id.
   */
  const clientOrder = useRef<{ id: string; of: string } | null>(null);
  const sending = useRef(false);
  const targetInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const commentInput = useRef<HTMLTextAreaElement>(null);

  const targetAccepted = isTargetAccepted(verification, targetValue);
  const canContinue = targetAccepted && !submitting && !refreshing;
  const method = detail.paymentMethods.find((option) => option.id === methodId);
  /** Exactly what the chosen method charges for the package (priced by the store, form-detail). */
  const total = method?.charge ?? detail.selected.charge;
  const adjustment = Math.round((total - detail.selected.charge) * 100) / 100;

  // What the customer typed before a closed payment window, a failed payment's "Try again" or a
  // reload comes back (order-draft.ts); read after hydration, so the server's HTML stays the same.
  const restored = useRef(false);
  // A renewal link (`?target=…&renewal=…`) names the account, which wins over a draft's.
  const restoreDraft = useCallback(() => {
    const draft = readOrderDraft();
    const query = new URLSearchParams(window.location.search);
    renewal.current = query.get('renewal');
    const name = query.get('target') || draft?.name;
    if (draft?.email && emailInput.current) emailInput.current.value = draft.email;
    if (commentShown && draft?.comment && commentInput.current) commentInput.current.value = draft.comment;
    if (name && targetInput.current) {
      targetInput.current.value = name;
      setTargetValue(name);
      verification.verify(name);
    }
  }, [commentShown, verification]);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    restoreDraft();
  }, [restoreDraft]);

  const send = async (values: CheckedOrderForm) => {
    if (sending.current || !canContinue) return;
    sending.current = true;
    setSubmitting(true);
    setFormError(null);
    const orderOf = JSON.stringify([detail.serviceId, detail.selected.qty, values.name, values.email, values.comment]);
    if (clientOrder.current?.of !== orderOf) clientOrder.current = { id: newClientOrderId(), of: orderOf };
    const payload: CreateOrderPayload = {
      type: detail.planType,
      slug: detail.serviceId,
      qty: detail.selected.qty,
      name: values.name,
      email: values.email,
      // The chosen method's price: what the buyer saw is what the store charges (or it answers 409).
      amount: total,
      currency: 'USD',
      order_id: clientOrder.current.id,
      ...(commentShown ? { comment: values.comment ?? '' } : {}),
      ...(method ? { paymentMethod: method.id } : {}),
      ...(renewal.current ? { renewalToken: renewal.current } : {}),
    };
    try {
      // Kept until the order is paid: closing the payment window leaves the form as it was.
      saveOrderDraft({ name: values.name, email: values.email, comment: values.comment ?? '' });
      const created = await api.post<CreatedOrder, CreateOrderPayload>('/api/order', payload);
      setFormError(null);
      onCreated(created);
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : [];
      const target = fieldErrors.find((fieldError) => fieldError.field === 'name');
      const others = fieldErrors.filter((fieldError) => isFormField(fieldError.field) && fieldError !== target);
      if (target) {
        // The store checked the target itself and refused it: the same state as a failed check.
        verification.fail(target.message);
        targetInput.current?.focus();
      }
      if (others.length > 0) {
        check.refuse(
          Object.fromEntries(
            others.flatMap(({ field, message }) => (isFormField(field) ? [[field, message] as const] : [])),
          ),
        );
      }
      if (!target && others.length === 0) {
        setFormError(messageOf(error));
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

  const errors = {
    name: check.errorOf('name'),
    email: check.errorOf('email'),
    comment: check.errorOf('comment'),
  };
  const state = verification.state;
  const targetError = errors.name ?? (state.status === 'error' ? state.message : undefined);
  const targetInvalid = !!targetError;
  const selectedQty = refreshing ? qty : detail.selected.qty;
  const selectedTier = packages.list.find((tier) => tier.qty === selectedQty);
  /** The spec's +1 on prices of 1 or less, named (decision 033); from the lookup's price and charge. */
  const fee = processingFee(detail.selected.price, detail.selected.charge);

  return (
    <form
      id={`${ids}-order`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const values = check.submit(event.currentTarget);
        if (values) void send(values);
      }}
      onInput={check.onInput}
      onBlur={check.onBlur}
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
            ref={targetInput}
            name="name"
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={targetField.placeholder}
            onChange={(event) => {
              setTargetValue(event.currentTarget.value);
              // Another text is another target: its check starts over.
              verification.reset();
              setFormError(null);
            }}
            onBlur={(event) => verification.verify(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Enter cannot send the form before the target is checked: check it instead.
              if (event.key === 'Enter' && !targetAccepted) {
                event.preventDefault();
                const form = event.currentTarget.form;
                if (form) check.validate(form, 'name');
                verification.verify(event.currentTarget.value);
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
        {state.status === 'success' && state.laneNotice ? <LaneNotice notice={state.laneNotice} /> : null}
      </div>

      <TextField
        id={emailId}
        label={emailField.title}
        ref={emailInput}
        field={bound('email')}
        error={errors.email}
        errorId={emailErrorId}
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={emailField.placeholder}
        onChange={() => setFormError(null)}
        hint={
          <p className="mt-1.5 text-xs text-gray-700">
            Your receipt and order updates go to this address. We never ask for your password.
          </p>
        }
      />

      <div>
        <p className="mb-2 font-semibold text-gray-900">Choose your package</p>
        <QuantityDropdown slug={slug} type={type} options={packages.list} selectedQty={selectedQty} />
        {detail.subscription ? <SubscriptionTerms {...detail.subscription} /> : null}
      </div>

      {commentShown ? (
        <TextAreaField
          id={commentId}
          label={commentField.title}
          ref={commentInput}
          field={bound('comment')}
          error={errors.comment}
          errorId={commentErrorId}
          rows={7}
          placeholder={commentField.placeholder}
          onChange={() => setFormError(null)}
        />
      ) : null}

      {detail.paymentMethods.length > 0 ? (
        <PaymentMethodChooser
          methods={detail.paymentMethods}
          selected={methodId}
          onSelect={setMethodId}
          testMode={detail.testMode}
          refreshing={refreshing}
        />
      ) : null}

      <dl className="space-y-1 rounded-xl bg-gray-50 px-4 py-3 text-sm" data-testid="order-charges">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-gray-800">
            {selectedTier?.text ?? detail.selected.text} · {detail.name} · {detail.planTitle}
          </dt>
          <dd data-testid="order-package-price" className="font-semibold text-gray-900 tabular-nums">
            {refreshing ? '…' : <TierPrice price={detail.selected.price} listPrice={detail.selected.listPrice} />}
          </dd>
        </div>
        {fee > 0 ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-gray-800">{PROCESSING_FEE_LABEL}</dt>
            <dd data-testid="order-fee" className="font-semibold text-gray-900 tabular-nums">
              {refreshing ? '…' : formatHomePrice(fee)}
            </dd>
          </div>
        ) : null}
        {method && adjustment !== 0 ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-gray-800">
              {method.label} {adjustment < 0 ? 'discount' : 'surcharge'} ({Math.abs(method.adjustmentPercent)}%)
            </dt>
            <dd data-testid="order-adjustment" className="font-semibold text-gray-900 tabular-nums">
              {refreshing ? '…' : `${adjustment < 0 ? '−' : '+'}${formatHomePrice(Math.abs(adjustment))}`}
            </dd>
          </div>
        ) : null}
        <div className="flex items-baseline justify-between gap-4 border-t border-gray-200 pt-2">
          <dt className="text-gray-700">Total</dt>
          <dd data-testid="order-total" className="text-2xl font-extrabold text-gray-900 tabular-nums">
            {refreshing ? '…' : formatHomePrice(total)}
          </dd>
        </div>
      </dl>

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
        <SecureCheckoutNote sandbox={sandbox} />
      </div>
      {submitting ? (
        <p role="status" className="sr-only">
          Creating your order
        </p>
      ) : null}
    </form>
  );
}
