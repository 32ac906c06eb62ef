/**
 * Razorpay Standard Checkout in the browser (design/integrations.md): the script is loaded on
 * demand, once, and only by the order page.
 */

export const RAZORPAY_CHECKOUT_SRC = 'https://checkout.razorpay.com/v1/checkout.js';

export interface RazorpaySuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface RazorpayFailure {
  error?: {
    code?: string;
    description?: string;
    reason?: string;
    metadata?: { order_id?: string; payment_id?: string };
  };
}

export interface RazorpayOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill: { email: string };
  handler: (response: RazorpaySuccess) => void;
  modal: { ondismiss: () => void };
}

export interface RazorpayInstance {
  open(): void;
  close(): void;
  on(event: 'payment.failed', listener: (response: RazorpayFailure) => void): void;
}

export type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let loading: Promise<RazorpayConstructor> | null = null;

/** Injects the checkout script once; later calls share the same promise. */
export function loadRazorpay(): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>(`script[src="${RAZORPAY_CHECKOUT_SRC}"]`);
    if (!script) {
      script = document.createElement('script');
      script.src = RAZORPAY_CHECKOUT_SRC;
      script.async = true;
      document.head.appendChild(script);
    }
    const failed = () => {
      loading = null;
      script?.remove();
      reject(new Error('The payment window could not be loaded. Please check your connection and try again.'));
    };
    script.addEventListener('load', () => (window.Razorpay ? resolve(window.Razorpay) : failed()), { once: true });
    script.addEventListener('error', failed, { once: true });
  });
  return loading;
}
