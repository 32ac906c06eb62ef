import { useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { RefundAddressBody, RefundAddressReply } from '../../core/orders/refund-contracts.ts';
import {
  REFUND_ADDRESS_MAX_LENGTH,
  REFUND_ADDRESS_MIN_LENGTH,
  REFUND_FORM_MESSAGES,
  refundAddressError,
} from '../../core/orders/refund-rules.ts';
import type { Route } from './+types/refund';
import { ApiError, type Envelope, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { ButtonSpinner, ErrorBanner, TextField, primaryButton } from '../components/form.tsx';
import { type RefusedField, useFormCheck } from '../components/use-form-check.ts';
import { requestContext } from '../context.ts';
import { privatePageMeta } from '../seo/meta.ts';

/**
 * Where a crypto refund goes: the refund e-mail links here with a single-use token. The loader
 * (server-rendered) says what is refunded for which order, or that the link cannot be used; the
 * form takes the wallet address, checked in the browser with the API's rules without zod
 * (core/orders/refund-rules.ts), and sends it to `POST /api/refunds/address`, which spends the
 * link and sends the refund. Private: noindex, never cached, the token only ever in a body.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Your refund', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export async function loader({ params, context }: Route.LoaderArgs) {
  return context.get(requestContext).services.refundLinks.view(params.token);
}

type ActionData =
  | { kind: 'refused'; refused: RefusedField[]; formError?: string }
  | { kind: 'invalid' }
  | { kind: 'sent'; notice: string };

const FIELDS = ['address'] as const;

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionData> {
  const formData = await request.formData();
  const value = formData.get('address');
  const address = typeof value === 'string' ? value : '';
  const problem = refundAddressError(address);
  if (problem) return { kind: 'refused', refused: [{ field: 'address', message: problem }] };
  try {
    const reply = await api.send<Envelope<RefundAddressReply>, RefundAddressBody>('POST', '/api/refunds/address', {
      body: { token: params.token, address: address.trim() },
      signal: request.signal,
    });
    return { kind: 'sent', notice: reply.message };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: 'invalid' };
    const refused = error instanceof ApiError ? error.fieldErrors.filter(({ field }) => field === 'address') : [];
    return refused.length > 0
      ? { kind: 'refused', refused }
      : { kind: 'refused', refused: [], formError: messageOf(error) };
  }
}

function LinkInvalid() {
  return (
    <div data-testid="refund-link-invalid">
      <h1 className="text-3xl font-extrabold text-gray-900">This refund link does not work</h1>
      <p className="mt-4 text-gray-700">{REFUND_FORM_MESSAGES.tokenInvalid}</p>
      <p className="mt-4 text-gray-700">
        If you already gave your wallet address, your refund is on its way. Otherwise{' '}
        <Link to="/contact" className="font-semibold text-brand-700 underline hover:text-brand-800">
          write to our support team
        </Link>{' '}
        with your order number and we will sort it out.
      </p>
    </div>
  );
}

export default function RefundPage({ loaderData }: Route.ComponentProps) {
  const ids = useId();
  const fetcher = useFetcher<ActionData>();
  const submitting = fetcher.state !== 'idle';
  const check = useFormCheck({
    fields: FIELDS,
    check: (values) => {
      const problem = refundAddressError(values.address);
      return problem
        ? { ok: false as const, errors: { address: problem } }
        : { ok: true as const, value: values.address.trim() };
    },
    validateOn: 'submit',
    whileTyping: 'recheck',
  });
  const reply = fetcher.data;
  const [handled, setHandled] = useState<ActionData | undefined>(undefined);
  if (reply && reply !== handled) {
    setHandled(reply);
    if (reply.kind === 'refused') check.refuseFields(reply.refused);
  }

  let body;
  // A sent address first: the page's data reloads after the submit, and the link is spent by then.
  if (reply?.kind === 'sent') {
    body = (
      <div data-testid="refund-sent">
        <h1 className="text-3xl font-extrabold text-gray-900">Thank you</h1>
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
  } else if (loaderData.state !== 'open' || reply?.kind === 'invalid') {
    body = <LinkInvalid />;
  } else {
    const formError = reply?.kind === 'refused' ? reply.formError : undefined;
    body = (
      <>
        <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900">
          Tell us where to send your refund
        </h1>
        <p className="mt-3 text-gray-700">
          You paid with crypto, so we send your refund to a wallet address you give us. Copy it from your wallet: crypto
          sent to a wrong address cannot be called back.
        </p>
        <dl
          data-testid="refund-order"
          className="mt-6 grid gap-3 rounded-2xl border border-gray-200 bg-gray-50 p-4 sm:grid-cols-3"
        >
          <div className="min-w-0">
            <dt className="text-sm font-semibold text-gray-600">Order</dt>
            <dd className="mt-1 font-mono font-semibold break-all text-gray-900">{loaderData.orderNumber}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-sm font-semibold text-gray-600">Service</dt>
            <dd className="mt-1 font-semibold break-words text-gray-900">{loaderData.serviceName}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-gray-600">Refund</dt>
            <dd className="mt-1 font-semibold text-gray-900" data-testid="refund-amount">
              {loaderData.amountText}
            </dd>
          </div>
        </dl>
        <fetcher.Form
          method="post"
          noValidate
          onSubmit={(event) => {
            if (check.submit(event.currentTarget) === null) event.preventDefault();
          }}
          onInput={check.onInput}
          aria-labelledby={`${ids}-title`}
          className="mt-6 space-y-5"
        >
          <TextField
            id={`${ids}-address`}
            label="Your wallet address"
            field={{ name: 'address', key: 'address', initialValue: '' }}
            error={check.errorOf('address')}
            errorId={`${ids}-address-error`}
            errorTestId="address-error"
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={REFUND_ADDRESS_MAX_LENGTH + 20}
            controlClassName="font-mono"
            describedBy={`${ids}-address-hint`}
            hint={
              <p id={`${ids}-address-hint`} className="mt-1.5 text-sm text-gray-600">
                {REFUND_ADDRESS_MIN_LENGTH} to {REFUND_ADDRESS_MAX_LENGTH} letters and digits (and : _ - . where your
                address has them), with no spaces: the address alone, for the coin you paid with.
              </p>
            }
          />
          {formError ? <ErrorBanner message={formError} testId="refund-error" /> : null}
          <button type="submit" disabled={submitting} className={primaryButton}>
            {submitting ? <ButtonSpinner /> : null}
            {submitting ? 'Sending…' : 'Submit'}
          </button>
        </fetcher.Form>
      </>
    );
  }

  return <div className="mx-auto max-w-2xl px-4 py-12">{body}</div>;
}
