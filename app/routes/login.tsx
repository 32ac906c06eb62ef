import { type FormEvent, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { replace, useFetcher, useLocation, useNavigate } from 'react-router';
// Types only: the schemas stay on the server; the page checks with the plain rules (decision 037).
import type {
  AdminLoginPayload,
  AdminLoginReply,
  AdminOtpPayload,
  AdminResendOtpPayload,
} from '../../core/auth/contracts.ts';
import { checkAdminLoginForm, checkAdminOtpForm } from '../../core/auth/login-form-check.ts';
import type { Route } from './+types/login';
import { getClearReason, getToken, setToken, subscribeToken } from '../admin/token.ts';
import { ApiError, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { ButtonSpinner, ErrorBanner, TextField, linkButton, primaryButton } from '../components/form.tsx';
import { type FieldErrors, useFormCheck } from '../components/use-form-check.ts';
import { StrokeIcon } from '../components/StrokeIcon.tsx';
import { useHydrated } from '../hydrated.ts';
import { privatePageMeta } from '../seo/meta.ts';

/**
 * Admin login (spec "Admin login", section 4 "Admin login", section 8): e-mail and password, both
 * required; the server's message in a red banner. Every login needs a second factor (decision
 * 016): the right password answers 409 / isVerified false, and the OTP step asks for the 6-digit
 * code we e-mailed, or, for an admin who turned on an authenticator app, the app's code or a
 * recovery code (the reply's `secondFactor`); it verifies it, then logs in again with the
 * credentials kept in memory. A token → /admin (or the admin page that
 * sent the visitor here). A visitor who already has a token goes straight to /admin.
 *
 * The forms check with the API's rules in plain code (core/auth/login-form-check.ts, held to
 * the payload schemas of core/auth/contracts.ts by a property test; decision 037); the calls run in this route's `clientAction` through a fetcher, so pending and error states come
 * from the router. Payloads go as JSON in memory: the password never sits in a form field the
 * action would read back.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Admin login', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

const UNEXPECTED_MESSAGE = 'Login failed. Please try again.';

type LoginRequest =
  | { intent: 'login'; email: string; password: string; destination: string }
  | { intent: 'verify'; email: string; otp: string; password: string; destination: string }
  | { intent: 'resend'; email: string };

/** What the page shows after a call: the code step, a notice, or a refusal (banner and field errors). */
type LoginActionData =
  | { intent: 'login' | 'verify' | 'resend'; kind: 'refused'; message: string; fieldErrors: Record<string, string[]> }
  | { intent: 'login'; kind: 'verify'; email: string; secondFactor: SecondFactor }
  | { intent: 'resend'; kind: 'sent'; notice: string };

function refused(intent: LoginRequest['intent'], error: unknown): LoginActionData {
  const fieldErrors = error instanceof ApiError ? error.fieldErrors.filter((fieldError) => fieldError.field) : [];
  return {
    intent,
    kind: 'refused',
    // A refusal about fields shows under them; the banner is for the rest.
    message: fieldErrors.length > 0 ? '' : messageOf(error),
    fieldErrors: Object.fromEntries(fieldErrors.map(({ field, message }) => [field, [message]])),
  };
}

type SecondFactor = 'email' | 'totp';

/** What the OTP step asks for: the authenticator app's code when the server says so, else the e-mailed one. */
function secondFactorOf(error: unknown): SecondFactor {
  return error instanceof ApiError && error.reply?.secondFactor === 'totp' ? 'totp' : 'email';
}

/** Spec section 4: "if not verified (isVerified false or status 409) it switches to an OTP step". */
function needsCode(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 409 || Number(error.reply?.status) === 409 || error.reply?.isVerified === false;
}

async function logIn(email: string, password: string): Promise<string | null> {
  const reply = await api.send<AdminLoginReply, AdminLoginPayload>('POST', '/api/auth/login', {
    body: { email, password },
  });
  if (reply.isVerified === false) throw new ApiError(reply.message, 409, [], reply);
  return reply.access_token || null;
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  const payload = (await request.json()) as LoginRequest;
  try {
    switch (payload.intent) {
      case 'login': {
        // The page sent what its check accepted; the server checks it again.
        const token = await logIn(payload.email, payload.password);
        if (!token) return refused('login', new Error(UNEXPECTED_MESSAGE));
        setToken(token);
        return replace(payload.destination);
      }
      case 'verify': {
        await api.post<unknown, AdminOtpPayload>('/api/auth/verify-otp', { email: payload.email, otp: payload.otp });
        // Verified: log in again with the same credentials (spec section 4).
        const token = await logIn(payload.email, payload.password);
        if (!token) return refused('verify', new Error(UNEXPECTED_MESSAGE));
        setToken(token);
        return replace(payload.destination);
      }
      case 'resend': {
        const reply = await api.send<{ message: string }, AdminResendOtpPayload>('POST', '/api/auth/resend-otp', {
          body: { email: payload.email },
        });
        return { intent: 'resend', kind: 'sent', notice: reply.message || 'A new code is on its way.' } as const;
      }
    }
  } catch (error) {
    if (payload.intent === 'login' && needsCode(error))
      return {
        intent: 'login',
        kind: 'verify',
        email: payload.email.trim(),
        secondFactor: secondFactorOf(error),
      } as const;
    return refused(payload.intent, error);
  }
}

/** The notice another page sent along in the navigation state, if any. */
function noticeOf(state: unknown): string | null {
  const notice = (state as { notice?: unknown } | null)?.notice;
  return typeof notice === 'string' && notice ? notice : null;
}

/** Where to go after logging in: back to the admin page that sent the visitor here, or /admin. */
function destination(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && /^\/admin(?:[/?]|$)/.test(from) ? from : '/admin';
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <StrokeIcon className="h-5 w-5">
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M3 3l18 18" /> : null}
    </StrokeIcon>
  );
}

type Step = 'login' | 'otp';

/** A server refusal's field errors, the first message of each. */
function refusedFields<Field extends string>(
  reply: LoginActionData | undefined,
  fields: readonly Field[],
): FieldErrors<Field> | null {
  if (reply?.kind !== 'refused' || Object.keys(reply.fieldErrors).length === 0) return null;
  const errors: FieldErrors<Field> = {};
  for (const field of fields) {
    const message = reply.fieldErrors[field]?.[0];
    if (message) errors[field] = message;
  }
  return errors;
}

const LOGIN_FIELDS = ['email', 'password'] as const;
const OTP_FIELDS = ['email', 'otp'] as const;

export default function LoginPage() {
  const ids = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<LoginActionData>();

  const [step, setStep] = useState<Step>('login');
  const [showPassword, setShowPassword] = useState(false);
  /** The entry notice was dismissed (a new log-in attempt replaces it). */
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  const [otpEmail, setOtpEmail] = useState('');
  const [secondFactor, setSecondFactor] = useState<SecondFactor>('email');
  /** The reply already acted on, and the one the page shows (a new step starts clean). */
  const [handled, setHandled] = useState<LoginActionData | undefined>(undefined);
  const [shown, setShown] = useState<LoginActionData | undefined>(undefined);
  /** Bumped to start the code form afresh. */
  const [attempt, setAttempt] = useState(0);
  /** The credentials the OTP step logs in with again (spec section 4); memory only. */
  const kept = useRef<{ email: string; password: string } | null>(null);

  const codeInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const loginCheck = useFormCheck({ fields: LOGIN_FIELDS, check: checkAdminLoginForm, validateOn: 'submit' });
  const otpCheck = useFormCheck({ fields: OTP_FIELDS, check: checkAdminOtpForm, validateOn: 'submit' });

  // A reply moves the page on; done while rendering, once per reply.
  const reply = fetcher.data;
  if (reply && reply !== handled) {
    setHandled(reply);
    setShown(reply);
    if (reply.kind === 'verify') {
      setOtpEmail(reply.email);
      setSecondFactor(reply.secondFactor);
      setStep('otp');
      setAttempt((count) => count + 1);
      otpCheck.reset();
    } else if (reply.kind === 'refused') {
      // A refusal about fields shows under them, on the form that was sent.
      const onLogin = reply.intent === 'login';
      const fieldErrors = onLogin ? refusedFields(reply, LOGIN_FIELDS) : refusedFields(reply, OTP_FIELDS);
      if (fieldErrors) (onLogin ? loginCheck : otpCheck).refuse(fieldErrors);
    }
  }

  const pendingIntent =
    fetcher.state === 'idle'
      ? null
      : ((fetcher.json as { intent?: LoginRequest['intent'] } | undefined)?.intent ?? null);
  const busy = pendingIntent !== null;

  // "Your session has expired…" when an admin call answered 401: the admin layout passes the
  // reason along in the navigation state; a token cleared while no admin page was open leaves it
  // behind in the token store. Navigation state is the browser's alone (a reload keeps it in
  // history.state), so it is read only once hydrated, as the server render cannot know it.
  const pendingReason = useSyncExternalStore(subscribeToken, getClearReason, () => null);
  const stateNotice = hydrated ? noticeOf(location.state) : null;
  const notice = noticeDismissed ? null : (stateNotice ?? pendingReason);

  // Logged-in state is the token's presence: such a visitor goes to /admin. (`navigate` never
  // changes, so this runs on entry only.)
  useEffect(() => {
    if (getToken()) void navigate('/admin', { replace: true });
  }, [navigate]);

  const submit = (request: LoginRequest) => {
    void fetcher.submit(request, { method: 'post', encType: 'application/json' });
  };

  const onLoginSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const credentials = loginCheck.submit(event.currentTarget);
    if (!credentials || busy) return;
    kept.current = credentials;
    setNoticeDismissed(true);
    setShown(undefined);
    submit({ intent: 'login', ...credentials, destination: destination(location.state) });
  };

  const onOtpSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = otpCheck.submit(event.currentTarget);
    const credentials = kept.current;
    if (!checked || busy || !credentials) return;
    setShown(undefined);
    submit({
      intent: 'verify',
      email: credentials.email,
      otp: checked.otp,
      password: credentials.password,
      destination: destination(location.state),
    });
  };

  // The code step puts the keyboard in its field (again when the form starts afresh and remounts it).
  useEffect(() => {
    if (step === 'otp') codeInput.current?.focus();
  }, [step, attempt]);

  const resend = () => {
    if (busy || !kept.current) return;
    setShown(undefined);
    submit({ intent: 'resend', email: kept.current.email });
  };

  const backToLogin = () => {
    kept.current = null;
    setStep('login');
    setShown(undefined);
    requestAnimationFrame(() => passwordInput.current?.focus());
  };

  const banner = shown?.kind === 'refused' && shown.message ? shown.message : null;
  const resendNotice = step === 'otp' && shown?.kind === 'sent' ? shown.notice : null;
  const emailError = loginCheck.errorOf('email');
  const passwordError = loginCheck.errorOf('password');
  const codeError = otpCheck.errorOf('otp');

  const emailId = `${ids}-email`;
  const passwordId = `${ids}-password`;
  const codeId = `${ids}-code`;

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="mx-auto flex min-h-[70vh] max-w-md flex-col justify-center px-4 py-12"
    >
      <img src="/images/logo.svg" alt="Boostly" width={160} height={40} className="mx-auto" />
      <div className="mt-8 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id={`${ids}-title`} className="text-2xl font-extrabold text-gray-900">
          {step === 'login' ? 'Admin login' : secondFactor === 'totp' ? 'Two-step login' : 'Check your e-mail'}
        </h1>

        {notice && step === 'login' ? (
          <p
            role="status"
            data-testid="login-notice"
            className="mt-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
          >
            {notice}
          </p>
        ) : null}

        {step === 'login' ? (
          // method="post" keeps the password out of the address bar should the form ever be
          // submitted without JavaScript (the button stays disabled until the page is live).
          <form
            id={`${ids}-login`}
            method="post"
            noValidate
            onSubmit={onLoginSubmit}
            onInput={loginCheck.onInput}
            className="mt-6 space-y-5"
          >
            <TextField
              id={emailId}
              label="Email"
              field={{ name: 'email', key: undefined, initialValue: undefined }}
              error={emailError}
              errorId={`${emailId}-error`}
              errorTestId="email-error"
              type="email"
              inputMode="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
            />

            <TextField
              id={passwordId}
              ref={passwordInput}
              label="Password"
              field={{ name: 'password', key: undefined, initialValue: undefined }}
              error={passwordError}
              errorId={`${passwordId}-error`}
              errorTestId="password-error"
              controlClassName="pr-14"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              autoCapitalize="none"
              spellCheck={false}
              required
              adornment={
                <button
                  type="button"
                  onClick={() => setShowPassword((shown) => !shown)}
                  aria-pressed={showPassword}
                  aria-label="Show password"
                  aria-controls={passwordId}
                  className="absolute inset-y-1.5 right-1.5 flex w-11 items-center justify-center rounded-lg text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  <EyeIcon crossed={showPassword} />
                </button>
              }
            />

            {banner ? <ErrorBanner message={banner} testId="login-error" /> : null}

            <button type="submit" disabled={!hydrated || busy} className={primaryButton}>
              {pendingIntent === 'login' ? <ButtonSpinner /> : null}
              Log in
            </button>
          </form>
        ) : (
          <>
            {secondFactor === 'totp' ? (
              <p className="mt-3 text-gray-700" data-testid="otp-intro">
                Enter the 6-digit code from your authenticator app, or one of your recovery codes.
              </p>
            ) : (
              <p className="mt-3 text-gray-700" data-testid="otp-intro">
                We sent a 6-digit code to <span className="font-semibold text-gray-900 break-all">{otpEmail}</span>
              </p>
            )}
            {resendNotice ? (
              <p
                role="status"
                data-testid="resend-notice"
                className="mt-4 rounded-xl border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-900"
              >
                {resendNotice}
              </p>
            ) : null}
            <form
              id={`${ids}-otp`}
              noValidate
              onSubmit={onOtpSubmit}
              onInput={otpCheck.onInput}
              className="mt-6 space-y-5"
            >
              <input type="hidden" name="email" value={otpEmail} />
              <TextField
                id={codeId}
                ref={codeInput}
                label={secondFactor === 'totp' ? 'Code or recovery code' : '6-digit code'}
                field={{ name: 'otp', key: `otp-${attempt}`, initialValue: undefined }}
                error={codeError}
                errorId={`${codeId}-error`}
                errorTestId="code-error"
                controlClassName="font-mono text-lg tracking-[0.4em]"
                type="text"
                inputMode={secondFactor === 'totp' ? 'text' : 'numeric'}
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={secondFactor === 'totp' ? 12 : 6}
                placeholder="123456"
                required
              />

              {banner ? <ErrorBanner message={banner} testId="login-error" /> : null}

              <button type="submit" disabled={busy} className={primaryButton}>
                {pendingIntent === 'verify' ? <ButtonSpinner /> : null}
                Verify
              </button>
            </form>
            <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
              {secondFactor === 'email' ? (
                <p className="text-gray-700">
                  No code?{' '}
                  <button type="button" onClick={resend} disabled={busy} className={linkButton}>
                    Resend
                  </button>
                </p>
              ) : (
                <span />
              )}
              <button type="button" onClick={backToLogin} disabled={pendingIntent === 'verify'} className={linkButton}>
                Back to login
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
