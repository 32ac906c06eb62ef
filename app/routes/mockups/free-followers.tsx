import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '../../components/Link.tsx';
import {
  FREE_FOLLOWERS_MAX,
  FREE_FOLLOWERS_MIN,
  FREE_TRIAL_PACKAGES,
  type FreeFollowersField,
  type FreeFollowersValue,
  checkFreeFollowers,
  formatRupees,
} from '../../../core/mockups/free-followers.ts';
import { REFILL_GUARANTEE_DAYS } from '../../../core/settings/store-info.ts';
import type { Route } from './+types/free-followers';
import { CacheStrategy } from '../../cache.ts';
import { inputClass, primaryButton } from '../../components/form.tsx';
import { PreviewBanner } from '../../components/mockups/PreviewBanner.tsx';
import { useFormCheck } from '../../components/use-form-check.ts';
import { ErrorSummary, FieldError, FieldLabel, describedBy } from '../../components/mockups/fields.tsx';
import { requestContext } from '../../context.ts';
import { pageMeta } from '../../seo/meta.ts';

/**
 * `/free-followers` (spec "Static mock-ups"; docs/decisions/028-mock-up-pages.md): the free
 * Instagram followers trial as a preview. The form validates like a real one (username, a whole
 * number of followers from 10 to 350000), but the store offers no free trials: a valid submit
 * shows a notice that says so and points to the real Instagram followers packages. Nothing is
 * sent anywhere. Three 'Get Free Followers' buttons (the spec's) all submit the one form. It is
 * checked in the one form style (`useFormCheck`, decision 052) with plain code
 * (core/mockups/free-followers.ts), which keeps the page under its first-load JavaScript budget.
 */

const PATH = '/free-followers';
/** The real service the notice points to (seed catalogue). */
const FOLLOWERS_SERVICE_PATH = '/service/instagram-followers';

export function loader({ context }: Route.LoaderArgs) {
  return { publicUrl: context.get(requestContext).services.publicUrl };
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) =>
  pageMeta({
    publicUrl: data?.publicUrl,
    path: PATH,
    title: 'Free Instagram Followers (preview)',
    description:
      'A preview of a free Instagram followers trial. Free trials are not offered yet: see our Instagram followers packages instead.',
    noindex: true,
  });

const FIELDS: readonly FreeFollowersField[] = ['username', 'quantity'];

function formatQuantity(qty: number): string {
  return qty.toLocaleString('en-US');
}

export default function FreeFollowersPage() {
  const ids = useId();
  const formId = `${ids}-free-followers`;
  const [accepted, setAccepted] = useState<FreeFollowersValue | null>(null);
  const [attempts, setAttempts] = useState(0);
  const noticeRef = useRef<HTMLDivElement>(null);

  /** The two fields' text; the package buttons fill in the quantity. */
  const [values, setValues] = useState<Record<FreeFollowersField, string>>({ username: '', quantity: '' });
  const formRef = useRef<HTMLFormElement>(null);
  // Messages show once the form was sent, then follow the typing (errors clear as they are fixed).
  const formCheck = useFormCheck({ fields: FIELDS, check: checkFreeFollowers, validateOn: 'submit' });
  /** A package button filled in the quantity: check it again once the field shows the new value. */
  const packageChosen = useRef(false);

  useEffect(() => {
    if (accepted) noticeRef.current?.focus();
  }, [accepted]);

  useEffect(() => {
    if (!packageChosen.current) return;
    packageChosen.current = false;
    if (attempts > 0 && formRef.current) formCheck.validate(formRef.current, 'quantity');
  }, [values.quantity, attempts, formCheck]);

  const change = (name: FreeFollowersField, value: string) => setValues((current) => ({ ...current, [name]: value }));

  const usernameError = formCheck.errorOf('username');
  const quantityError = formCheck.errorOf('quantity');
  const errorCount = [usernameError, quantityError].filter(Boolean).length;
  const chosenQuantity = values.quantity;
  const usernameId = `${ids}-username`;
  const quantityId = `${ids}-quantity`;

  const getButton = (testId: string) => (
    <button
      type="submit"
      form={formId}
      data-testid={testId}
      onClick={() => {
        setAccepted(null);
        setAttempts((count) => count + 1);
      }}
      className={primaryButton}
    >
      Get Free Followers
    </button>
  );

  return (
    <>
      <PreviewBanner>
        This page is a preview: free trials are not offered yet, so it gives no followers away and asks for no payment.{' '}
        <Link to={FOLLOWERS_SERVICE_PATH} className="font-semibold underline">
          See our Instagram followers packages
        </Link>
        .
      </PreviewBanner>
      <div className="mx-auto max-w-5xl px-4 py-12">
        <header className="max-w-2xl">
          <h1 className="text-3xl font-extrabold text-gray-900 sm:text-4xl">Free Instagram Followers</h1>
          <p className="mt-3 text-gray-700">
            Enter your public Instagram username and how many followers you would like to try. We never ask for your
            password.
          </p>
          <div className="mt-6 max-w-xs">{getButton('get-free-followers-top')}</div>
        </header>

        <div className="mt-10 grid gap-10 lg:grid-cols-2">
          <section
            aria-labelledby={`${ids}-form-title`}
            className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <h2 id={`${ids}-form-title`} className="text-xl font-bold text-gray-900">
              Try free followers
            </h2>
            <form
              ref={formRef}
              id={formId}
              method="post"
              noValidate
              onInput={formCheck.onInput}
              onSubmit={(event) => {
                // Valid: nothing is sent anywhere; the notice says what would happen and what really exists.
                event.preventDefault();
                const value = formCheck.submit(event.currentTarget);
                if (value) setAccepted(value);
              }}
              aria-describedby={`${ids}-form-note`}
              className="mt-4 space-y-4"
            >
              <p id={`${ids}-form-note`} className="text-sm text-gray-600">
                Preview form: what you enter stays in your browser.
              </p>
              <div>
                <FieldLabel htmlFor={usernameId}>Username</FieldLabel>
                <input
                  id={usernameId}
                  name="username"
                  value={values.username}
                  onChange={(event) => change('username', event.target.value)}
                  type="text"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="e.g. yourname"
                  aria-invalid={!!usernameError}
                  aria-describedby={describedBy(usernameError && `${usernameId}-error`)}
                  className={inputClass(!!usernameError)}
                />
                <FieldError id={`${usernameId}-error`} message={usernameError} testId="username-error" />
              </div>
              <div>
                <FieldLabel htmlFor={quantityId}>Followers Quantity</FieldLabel>
                <input
                  id={quantityId}
                  name="quantity"
                  value={values.quantity}
                  onChange={(event) => change('quantity', event.target.value)}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={`${FREE_FOLLOWERS_MIN}-${FREE_FOLLOWERS_MAX}`}
                  aria-invalid={!!quantityError}
                  aria-describedby={describedBy(`${ids}-quantity-hint`, quantityError && `${quantityId}-error`)}
                  className={inputClass(!!quantityError)}
                />
                <p id={`${ids}-quantity-hint`} className="mt-1.5 text-sm text-gray-600">
                  A whole number from {FREE_FOLLOWERS_MIN} to {formatQuantity(FREE_FOLLOWERS_MAX)}, or choose a package.
                </p>
                <FieldError id={`${quantityId}-error`} message={quantityError} testId="quantity-error" />
              </div>
              {attempts > 0 ? <ErrorSummary count={errorCount} testId="free-followers-errors" /> : null}
              {getButton('get-free-followers-form')}
            </form>
            <div
              ref={noticeRef}
              tabIndex={-1}
              role="status"
              data-testid="free-followers-notice"
              className={
                accepted
                  ? 'mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 focus:outline-2 focus:outline-amber-600'
                  : 'sr-only'
              }
            >
              {accepted ? (
                <>
                  <p className="font-bold">Free trials are not offered yet.</p>
                  <p className="mt-2">
                    This page is a preview: nothing was sent to Instagram, and @{accepted.username} will not receive{' '}
                    {formatQuantity(accepted.quantity)} free followers. Our paid Instagram followers packages start at
                    100 followers, are delivered gradually, and come with a {REFILL_GUARANTEE_DAYS}-day refill
                    guarantee.
                  </p>
                  <p className="mt-3">
                    <Link
                      to={FOLLOWERS_SERVICE_PATH}
                      data-testid="free-followers-real-service"
                      className="font-semibold text-brand-700 underline"
                    >
                      See Instagram followers packages
                    </Link>
                  </p>
                </>
              ) : null}
            </div>
          </section>

          <section aria-labelledby={`${ids}-packages-title`}>
            <h2 id={`${ids}-packages-title`} className="text-xl font-bold text-gray-900">
              Free trial packages
            </h2>
            <p className="mt-2 text-sm text-gray-700">Choosing a package fills in the quantity.</p>
            <ul className="mt-4 grid grid-cols-2 gap-3" data-testid="free-trial-packages">
              {FREE_TRIAL_PACKAGES.map((pkg) => {
                const chosen = chosenQuantity === String(pkg.qty);
                return (
                  <li key={pkg.qty}>
                    <button
                      type="button"
                      aria-pressed={chosen}
                      onClick={() => {
                        packageChosen.current = true;
                        change('quantity', String(pkg.qty));
                      }}
                      className={`flex w-full flex-col items-start rounded-xl border-2 p-4 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                        chosen ? 'border-brand-700 bg-brand-50' : 'border-gray-200 bg-white hover:border-brand-600'
                      }`}
                    >
                      <span className="font-bold text-gray-900">{formatQuantity(pkg.qty)} Followers</span>
                      <span className="mt-1 text-sm text-gray-600">
                        <span className="sr-only">Price </span>
                        <s>{formatRupees(pkg.priceInr)}</s>
                      </span>
                      <span className="mt-1 text-sm font-semibold text-green-800">Free trial</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <div className="mt-6">{getButton('get-free-followers-packages')}</div>
          </section>
        </div>
      </div>
    </>
  );
}
