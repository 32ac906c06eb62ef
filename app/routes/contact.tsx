import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher, useSearchParams } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { ContactPayloadInput } from '../../core/contact/contracts.ts';
import { type ContactFieldName, checkContactForm } from '../../core/contact/form-check.ts';
import { MAX_CONTACT_MESSAGE_LENGTH, MAX_CONTACT_ORDER_ID_LENGTH } from '../../core/contact/rules.ts';
import { courseEnquiryMessage } from '../components/courses/catalogue.server.ts';
import { REFILL_GUARANTEE_DAYS, type StoreInfo } from '../../core/settings/store-info.ts';
import type { Route } from './+types/contact';
import { ApiError, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { Accordion, type AccordionItem } from '../components/Accordion.tsx';
import { ButtonSpinner, ErrorBanner, TextAreaField, TextField, primaryButton } from '../components/form.tsx';
import type { HelpPage } from '../content/legal/pages.ts';
import { helpPageMeta } from '../content/legal/seo.ts';
import { requestContext } from '../context.ts';
import { type RefusedField, useFormCheck } from '../components/use-form-check.ts';

/**
 * The contact page (spec "Contact page"): the store's support address and, when
 * configured, its office address (store settings, through the loader, so the first HTML has
 * them), the contact form, and four quick answers. The form is in the store's form style
 * (`useFormCheck`, decision 052): on submit it is checked with the API's rules
 * (core/contact/form-check.ts: the same messages as the API's zod schema, without downloading zod,
 * decision 036); typing in a field clears that field's error; this route's `clientAction` sends
 * it to `POST /api/contact`, and the reply is a green banner (the fields clear), the server's
 * refusals under their fields, or a red banner. Decision 024 covers what is stored and mailed.
 */

const CONTACT_PAGE: HelpPage = {
  path: '/contact',
  label: 'Contact',
  title: 'Contact Us',
  description:
    'Questions about a Boostly order? Write to our support team, available 24 hours a day, 7 days a week: we reply by e-mail.',
};

export function loader({ context, request }: Route.LoaderArgs) {
  const { storeInfo, publicUrl } = context.get(requestContext).services;
  // "Ask about this course" links here with ?course={slug}: the message starts with the course named (decision 027).
  const courseEnquiry = courseEnquiryMessage(new URL(request.url).searchParams.get('course'));
  return { storeInfo, publicUrl, courseEnquiry };
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) => helpPageMeta(CONTACT_PAGE, data?.publicUrl);

/** The honest line where the spec has "a chat pops up if agents are available": this store has no chat. */
const NO_CHAT_NOTE =
  'We do not have a live chat: every message sent here reaches our support team, who reply by e-mail, 24 hours a day, 7 days a week.';

/** Four answers that are true of this store (decisions 004, 007, 008), with the refund window from settings. */
function quickAnswers(info: Pick<StoreInfo, 'refundWindowHours'>): AccordionItem[] {
  return [
    {
      question: 'Where is my order?',
      answer: (
        <>
          Delivery starts within 24 to 72 hours of payment and continues gradually. To see its status, open{' '}
          <Link to="/client" className="font-semibold text-brand-700 underline">
            My orders
          </Link>{' '}
          with the e-mail address you ordered with (we e-mail you a 6-digit code), or follow the tracking link in your
          receipt.
        </>
      ),
    },
    {
      question: 'My order was not delivered in full. Do I get a refund?',
      answer: `Yes, automatically: all of it for a canceled order, the undelivered share for a partial one, issued within ${info.refundWindowHours} hours of the order ending. Your bank may take a few more days to show it.`,
    },
    {
      question: 'Followers dropped after delivery. What can I do?',
      answer: `Within ${REFILL_GUARANTEE_DAYS} days of your order being completed, send us a message with your order ID: our refill guarantee tops the drop up free of charge.`,
    },
    {
      question: 'Do you need my password?',
      answer:
        'No, never. We only need the public username or link and your e-mail address. Anyone asking for your password in our name is not us.',
    },
  ];
}

/** What a submit came to: the server's refusal (under its fields, or the red banner's message), or the green banner's notice. */
type ActionData = { refused: RefusedField[]; formError?: string; sent?: { notice: string } };

/** The server's refusal: its fields (the form puts them under the matching fields), or the red banner. */
function refusal(error: unknown): ActionData {
  const refused = error instanceof ApiError ? error.fieldErrors.filter((fieldError) => fieldError.field !== '') : [];
  return refused.length > 0 ? { refused } : { refused: [], formError: messageOf(error) };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionData> {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  const check = checkContactForm({
    email: text('email'),
    orderId: text('orderId'),
    message: text('message'),
    website: text('website'),
  });
  // The page sends only a form that passed this check; this keeps a scripted submit to the same rules.
  if (!check.ok) return { refused: Object.entries(check.errors).map(([field, message = '']) => ({ field, message })) };
  try {
    const reply = await api.send<{ message: string }, ContactPayloadInput>('POST', '/api/contact', {
      body: check.payload,
      signal: request.signal,
    });
    return { refused: [], sent: { notice: reply.message } };
  } catch (error) {
    return refusal(error);
  }
}

/** An order id from `?order=` (the order pages' links), when it looks like one. */
function orderIdFromQuery(value: string | null): string {
  return value && /^[A-Za-z0-9_]+$/.test(value) && value.length <= MAX_CONTACT_ORDER_ID_LENGTH ? value : '';
}

const CONTACT_FIELDS = ['email', 'orderId', 'message'] as const satisfies readonly ContactFieldName[];

/** The contact check in the form style's shape (the payload is the checked value). */
const checkContact = (values: Record<ContactFieldName, string>, website: string) => {
  const check = checkContactForm({ ...values, website });
  return check.ok ? { ok: true as const, value: check.payload } : check;
};

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  const { storeInfo } = loaderData;
  const ids = useId();
  const [searchParams] = useSearchParams();
  const prefilledOrderId = orderIdFromQuery(searchParams.get('order'));

  const fetcher = useFetcher<ActionData>();
  const submitting = fetcher.state !== 'idle';
  const formRef = useRef<HTMLFormElement>(null);
  /** Bumped after a success: the form starts afresh, its three fields empty. */
  const [attempt, setAttempt] = useState(0);
  const [handled, setHandled] = useState<ActionData | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | undefined>(undefined);
  /** Checked on submit; typing in a field clears that field's error (spec section 4). */
  const check = useFormCheck({
    fields: CONTACT_FIELDS,
    check: (values) => checkContact(values, ''),
    validateOn: 'submit',
    whileTyping: 'clear',
  });

  // A reply is acted on once, while rendering, so no frame shows the old state.
  const reply = fetcher.data;
  if (reply && reply !== handled) {
    setHandled(reply);
    if (reply.sent) {
      setNotice(reply.sent.notice);
      setBanner(undefined);
      check.reset();
      setAttempt((count) => count + 1);
    } else {
      // A refusal about a field this form does not show still needs saying.
      const elsewhere = check.refuseFields(reply.refused);
      setBanner(reply.formError ?? (elsewhere.length === reply.refused.length ? elsewhere[0]?.message : undefined));
    }
  }

  // After a refusal from the server, the first field in error takes the focus, as after a refused send.
  useEffect(() => {
    if (handled && !handled.sent && handled.refused.length > 0)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [handled]);

  const emailError = check.errorOf('email');
  const orderIdError = check.errorOf('orderId');
  const messageError = check.errorOf('message');
  const field = (name: ContactFieldName, initialValue: string) => ({ name, key: `${name}-${attempt}`, initialValue });

  const emailId = `${ids}-email`;
  const orderIdId = `${ids}-order-id`;
  const messageId = `${ids}-message`;
  const websiteId = `${ids}-website`;

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <div className="grid gap-10 lg:grid-cols-[2fr_3fr]">
        <section aria-labelledby={`${ids}-title`}>
          <h1 id={`${ids}-title`} className="text-3xl font-extrabold text-gray-900 sm:text-4xl">
            Contact Us
          </h1>
          <p className="mt-3 text-gray-700">
            Questions about an order, a refund or a refill? Write to us and include your order ID if you have one.
          </p>
          <dl className="mt-6 space-y-4" data-testid="contact-details">
            <div>
              <dt className="text-sm font-semibold text-gray-600">Support e-mail</dt>
              <dd className="mt-1">
                <a
                  href={`mailto:${storeInfo.supportEmail}`}
                  data-testid="support-email"
                  className="font-semibold break-all text-brand-700 underline hover:text-brand-800"
                >
                  {storeInfo.supportEmail}
                </a>
              </dd>
            </div>
            {storeInfo.supportPhone ? (
              <div>
                <dt className="text-sm font-semibold text-gray-600">Phone</dt>
                <dd className="mt-1 text-gray-900">{storeInfo.supportPhone}</dd>
              </div>
            ) : null}
            {storeInfo.officeAddress ? (
              <div>
                <dt className="text-sm font-semibold text-gray-600">Office</dt>
                <dd data-testid="office-address" className="mt-1 whitespace-pre-line text-gray-900">
                  {storeInfo.officeAddress}
                </dd>
              </div>
            ) : null}
          </dl>
          <p className="mt-6 text-sm text-gray-700" data-testid="chat-note">
            {NO_CHAT_NOTE}
          </p>
        </section>

        <section
          aria-labelledby={`${ids}-form-title`}
          className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2 id={`${ids}-form-title`} className="text-xl font-bold text-gray-900">
            Send us a message
          </h2>
          {notice ? (
            <p
              role="status"
              data-testid="contact-success"
              className="mt-4 rounded-xl border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-900"
            >
              {notice}
            </p>
          ) : null}
          <fetcher.Form
            ref={formRef}
            method="post"
            noValidate
            onSubmit={(event) => {
              setNotice(null);
              setBanner(undefined);
              if (check.submit(event.currentTarget) === null) event.preventDefault();
            }}
            onInput={check.onInput}
            className="mt-4 space-y-4"
          >
            <TextField
              id={emailId}
              label="Email"
              field={field('email', '')}
              error={emailError}
              errorId={`${emailId}-error`}
              errorTestId="email-error"
              type="email"
              inputMode="email"
              autoComplete="email"
              placeholder="you@example.com"
            />
            <TextField
              id={orderIdId}
              label={
                <>
                  Order ID <span className="font-normal text-gray-600">(optional)</span>
                </>
              }
              field={field('orderId', attempt === 0 ? prefilledOrderId : '')}
              error={orderIdError}
              errorId={`${orderIdId}-error`}
              errorTestId="order-id-error"
              type="text"
              autoComplete="off"
              maxLength={MAX_CONTACT_ORDER_ID_LENGTH}
              placeholder="e.g. Q7nX2bL9fP3kTz"
            />
            <TextAreaField
              id={messageId}
              label="Message"
              field={field('message', attempt === 0 ? loaderData.courseEnquiry : '')}
              error={messageError}
              errorId={`${messageId}-error`}
              errorTestId="message-error"
              rows={5}
              maxLength={MAX_CONTACT_MESSAGE_LENGTH}
              placeholder="How can we help?"
            />
            {/* The honeypot (decision 024): off-screen and hidden from assistive technology; people leave it empty. */}
            <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
              <label htmlFor={websiteId}>Leave this field empty</label>
              <input id={websiteId} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
            </div>
            {banner ? <ErrorBanner message={banner} testId="contact-error" /> : null}
            <button type="submit" disabled={submitting} className={primaryButton}>
              {submitting ? <ButtonSpinner /> : null}
              {submitting ? 'Sending…' : 'Send message'}
            </button>
          </fetcher.Form>
        </section>
      </div>

      <section aria-labelledby={`${ids}-answers`} className="mt-14">
        <h2 id={`${ids}-answers`} className="text-2xl font-bold text-gray-900">
          Quick Answers
        </h2>
        <div className="mt-6" data-testid="quick-answers">
          <Accordion items={quickAnswers(storeInfo)} idPrefix="quick-answers" />
        </div>
        <p className="mt-6 text-gray-700">
          More questions are answered in our{' '}
          <Link to="/faq" className="font-semibold text-brand-700 underline">
            FAQ
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
