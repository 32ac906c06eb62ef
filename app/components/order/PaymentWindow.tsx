import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CreatedOrder } from '../../../core/orders/contracts.ts';
import { type PaymentFailureReason, paymentFailureReasonOf } from '../../../core/orders/payment-failures.ts';
import { Spinner } from '../Spinner.tsx';
import { api, messageOf } from '../../api/client.ts';
import { type RazorpaySuccess, loadRazorpay } from './razorpay.ts';
import { clearOrderDraft } from './order-draft.ts';
import { SandboxCheckout } from './SandboxCheckout.tsx';

export const VERIFICATION_FAILED_PREFIX = 'Payment verification failed: ';

export const WINDOW_CLOSED_NOTICE =
  'The payment window was closed before the payment was completed. Nothing was charged.';

const HOSTED_PAGE_LEFT_NOTICE =
  'You came back from the payment page. If you did not pay there, nothing was charged: you can pay again or choose another method.';

interface PaymentResult {
  orderId: string;
}

/**
 * Opens the payment an order creation asked for (`checkout`): the sandbox dialog, Razorpay's
 * Standard Checkout, or a provider's hosted page (`redirectUrl`: crypto, 3-D Secure cards) the
 * browser is sent to. A verified payment or a failed attempt ends on the order's confirmation
 * page; a failed verification shows the spec's alert (section 8).
 */
export function PaymentWindow({ order, onDismiss }: { order: CreatedOrder; onDismiss: (notice?: string) => void }) {
  const navigate = useNavigate();
  const { checkout } = order;
  const [phase, setPhase] = useState<'opening' | 'open' | 'verifying' | 'recording'>('opening');
  const opened = useRef<string | null>(null);
  /** The in-page window's id for this payment attempt (a hosted page has none). */
  const windowOrderId = 'order_id' in checkout ? checkout.order_id : '';

  const confirmationOf = (orderId: string) => `/order-confirm/${encodeURIComponent(orderId)}`;

  /** The payment window's three signed fields → verify → confirmation page, or the alert. */
  const finishPaid = useCallback(
    async (result: RazorpaySuccess) => {
      setPhase('verifying');
      try {
        const { orderId } = await api.post<PaymentResult>('/api/order/verify-payment', {
          razorpay_order_id: result.razorpay_order_id,
          razorpay_payment_id: result.razorpay_payment_id,
          razorpay_signature: result.razorpay_signature,
        });
        // Paid: what the customer typed is not kept for a next order (order-draft.ts).
        clearOrderDraft();
        await navigate(confirmationOf(orderId));
      } catch (error) {
        window.alert(`${VERIFICATION_FAILED_PREFIX}${messageOf(error)}`);
        onDismiss();
      }
    },
    [navigate, onDismiss],
  );

  /** A failed attempt is recorded, then the confirmation page shows the failure variant. */
  const finishFailed = useCallback(
    async (failure: { paymentId?: string | undefined; reason: PaymentFailureReason }) => {
      setPhase('recording');
      const { orderId } = await api.post<PaymentResult>('/api/order/payment-failed', {
        razorpay_order_id: windowOrderId,
        ...(failure.paymentId ? { razorpay_payment_id: failure.paymentId } : {}),
        reason: failure.reason,
      });
      await navigate(confirmationOf(orderId));
    },
    [windowOrderId, navigate],
  );

  const hosted = 'redirectUrl' in checkout;

  // A hosted payment page (crypto, 3-D Secure cards): the provider sends the buyer back to the
  // order's confirmation page, which follows the payment from there.
  useEffect(() => {
    if (!('redirectUrl' in checkout) || opened.current === checkout.redirectUrl) return;
    opened.current = checkout.redirectUrl;
    window.location.assign(checkout.redirectUrl);
  }, [checkout]);

  // The browser's Back button from the hosted page may show this page from its cache, still
  // "taking you" there: the form comes back instead, to pay again or with another method.
  useEffect(() => {
    if (!hosted) return;
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) onDismiss(HOSTED_PAGE_LEFT_NOTICE);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [hosted, onDismiss]);

  useEffect(() => {
    if (checkout.provider !== 'razorpay' || opened.current === checkout.order_id) return;
    opened.current = checkout.order_id;
    let settled = false;
    loadRazorpay().then(
      (Razorpay) => {
        const rzp = new Razorpay({
          key: checkout.key,
          amount: checkout.amount,
          currency: checkout.currency,
          name: checkout.name,
          description: checkout.description,
          order_id: checkout.order_id,
          prefill: checkout.prefill,
          handler: (response) => {
            if (settled) return;
            settled = true;
            void finishPaid(response);
          },
          modal: {
            ondismiss: () => {
              if (settled) return;
              settled = true;
              onDismiss(WINDOW_CLOSED_NOTICE);
            },
          },
        });
        rzp.on('payment.failed', (response) => {
          if (settled) return;
          settled = true;
          try {
            rzp.close();
          } catch {
            // The window may already be gone.
          }
          finishFailed({
            paymentId: response.error?.metadata?.payment_id,
            reason: paymentFailureReasonOf(response.error?.reason),
          }).catch((error: unknown) => onDismiss(messageOf(error)));
        });
        setPhase('open');
        rzp.open();
      },
      (error: unknown) => onDismiss(messageOf(error)),
    );
  }, [checkout, finishFailed, finishPaid, onDismiss]);

  if (checkout.provider === 'sandbox') {
    return (
      <SandboxCheckout
        amountCents={checkout.amountCents}
        packageCents={order.packagePriceCents}
        listCents={order.listPriceCents}
        currency={checkout.currency}
        email={order.email}
        serviceName={order.serviceName}
        methodLabel={checkout.methodLabel}
        adjustmentCents={order.adjustmentCents}
        onPay={async () => {
          const result = await api.post<RazorpaySuccess>('/api/sandbox/pay', { razorpay_order_id: checkout.order_id });
          await finishPaid(result);
        }}
        onFail={async () => {
          const failure = await api.post<{ paymentId: string; description: string }>('/api/sandbox/fail', {
            razorpay_order_id: checkout.order_id,
          });
          await finishFailed({ paymentId: failure.paymentId, reason: 'card_declined' });
        }}
        onClose={() => onDismiss(WINDOW_CLOSED_NOTICE)}
      />
    );
  }

  if (phase === 'open') return null;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-gray-900/50">
      <div className="rounded-2xl bg-white px-8 py-6 shadow-xl">
        <Spinner
          label={
            hosted
              ? 'Taking you to the secure payment page'
              : phase === 'opening'
                ? 'Opening the payment window'
                : phase === 'verifying'
                  ? 'Confirming your payment'
                  : 'Recording the failed payment'
          }
        />
        <p aria-hidden="true" className="text-center text-sm font-medium text-gray-800">
          {hosted
            ? 'Taking you to the secure payment page…'
            : phase === 'opening'
              ? 'Opening the payment window…'
              : phase === 'verifying'
                ? 'Confirming your payment…'
                : 'One moment…'}
        </p>
      </div>
    </div>
  );
}
