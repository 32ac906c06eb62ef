import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** JSON, files and anything else that is not a page: nothing may run, load or frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Razorpay Standard Checkout: its script, its frames, and the calls they make. */
const RAZORPAY_CHECKOUT = {
  script: 'https://checkout.razorpay.com',
  frame: 'https://api.razorpay.com https://checkout.razorpay.com',
  connect: 'https://api.razorpay.com https://lumberjack.razorpay.com',
  img: 'https://cdn.razorpay.com',
};

/**
 * Video embeds in blog posts: the sanitiser (core/html/sanitize.ts) keeps only these two players'
 * iframes (YouTube rewritten to its no-cookie host), so pages may frame exactly these.
 */
const VIDEO_EMBED_FRAMES = 'https://www.youtube-nocookie.com https://player.vimeo.com';

export interface PageCspOptions {
  /** Order pages open Razorpay's checkout when Razorpay keys are configured. */
  razorpayCheckout?: boolean;
}

/** Pages: our own scripts plus the inline ones carrying this response's nonce. */
export function pageCsp(nonce: string, options: PageCspOptions = {}): string {
  return buildPageCsp(`'nonce-${nonce}'`, options);
}

/**
 * Cached pages (the same bytes for everyone, decision 035): our own scripts plus exactly the
 * inline scripts the page holds, by hash (`'sha256-…'` sources from page-cache.ts).
 */
export function cachedPageCsp(scriptHashes: readonly string[], options: PageCspOptions = {}): string {
  return buildPageCsp(scriptHashes.join(' '), options);
}

/** `inlineScripts`: the nonce or hash sources for inline scripts; empty allows none. */
function buildPageCsp(inlineScripts: string, options: PageCspOptions): string {
  const rzp = options.razorpayCheckout;
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScripts ? ` ${inlineScripts}` : ''}${rzp ? ` ${RAZORPAY_CHECKOUT.script}` : ''}`,
    `frame-src ${rzp ? `${RAZORPAY_CHECKOUT.frame} ` : ''}${VIDEO_EMBED_FRAMES}`,
    // React renders a few `style` attributes (e.g. carousel offsets); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${rzp ? ` ${RAZORPAY_CHECKOUT.img}` : ''}`,
    "font-src 'self'",
    `connect-src 'self'${rzp ? ` ${RAZORPAY_CHECKOUT.connect}` : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function setPageCsp(reply: FastifyReply, nonce: string, options: PageCspOptions = {}): void {
  reply.header('content-security-policy', pageCsp(nonce, options));
}

export function setCachedPageCsp(
  reply: FastifyReply,
  scriptHashes: readonly string[],
  options: PageCspOptions = {},
): void {
  reply.header('content-security-policy', cachedPageCsp(scriptHashes, options));
}
