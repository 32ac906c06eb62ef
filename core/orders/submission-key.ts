/**
 * What makes two submissions of the order form one order. The browser gives each form a random
 * 6-digit id so a double click or a retry gets the same order back; but the id alone, per e-mail,
 * would also answer "already used" to a stranger who sends that e-mail and id with another
 * package or target, telling them the address has ordered. So the key is the form id AND what it
 * asks for: the same form sent again is the same order (never a second charge), and anything else
 * is a fresh order, answered exactly like one. The key is stored in `client_order_id`, whose
 * unique (email, client_order_id) constraint keeps two racing submissions to one row.
 */
import { createHash } from 'node:crypto';

interface SubmissionContent {
  formId: string;
  serviceSlug: string;
  planType: string;
  quantity: number;
  target: string;
}

/** "123456" + what the form asks for → "123456.3f9a0c…": the stored client order key. */
export function submissionKey(content: SubmissionContent): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([content.serviceSlug, content.planType, content.quantity, content.target]))
    .digest('hex')
    .slice(0, 20);
  return `${content.formId}.${digest}`;
}

/** The browser's form id inside a stored key (rows written before the key carried the content hold it alone). */
export function formIdOf(clientOrderId: string): string {
  return clientOrderId.split('.')[0] ?? clientOrderId;
}
