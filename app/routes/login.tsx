import { type FormEvent, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Route } from './+types/login';
import { CacheStrategy } from '../cache.ts';
import { NETWORK_ERROR_MESSAGE, getClearReason, getToken, setToken, subscribeToken } from '../admin/token.ts';
import { ButtonSpinner, ErrorBanner, inputClass, linkButton, primaryButton } from '../components/form.tsx';
import { StrokeIcon } from '../components/StrokeIcon.tsx';
import { useHydrated } from '../hydrated.ts';

/**
 * Admin login (spec "Admin login", section 4 "Admin login", section 8): e-mail and password, both
 * required; the server's message in a red banner. An account that still has to confirm its
 * e-mail (409 / isVerified false) gets a 6-digit code by e-mail: the OTP step verifies it, then
 * logs in again with the credentials kept in memory. A token → /admin (or the admin page that
 * sent the visitor here). A visitor who already has a token goes straight to /admin.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Admin login | Boostly' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

const LOGIN_MESSAGES = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
  unexpected: 'Login failed. Please try again.',
} as const;

/** `POST /api/auth/login` (spec section 3, "Login payload"). */
interface LoginReply {
  isSuccessful?: boolean;
  access_token?: string;
  isVerified?: boolean;
  status?: number | string;
  message?: string;
}

interface PlainReply {
  isSuccessful?: boolean;
  message?: string;
}

interface Answer<T> {
  httpStatus: number;
  body: T;
}

class RequestFailed extends Error {}

async function postJson<T>(path: string, payload: unknown): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      cache: 'no-store',
    });
  } catch (error) {
    console.error(`POST ${path} failed`, error);
    throw new RequestFailed(NETWORK_ERROR_MESSAGE);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!body || typeof body !== 'object') {
    throw new RequestFailed(`The store answered with an unexpected reply (HTTP ${response.status}). Please try again.`);
  }
  return { httpStatus: response.status, body: body as T };
}

type LoginOutcome =
  { kind: 'token'; token: string } | { kind: 'verify'; message: string } | { kind: 'error'; message: string };

/** Spec section 4: "if not verified (isVerified false or status 409) it switches to an OTP step". */
async function logIn(email: string, password: string): Promise<LoginOutcome> {
  const { httpStatus, body } = await postJson<LoginReply>('/api/auth/login', { email, password });
  const ok = httpStatus >= 200 && httpStatus < 300;
  if (ok && body.isSuccessful && typeof body.access_token === 'string' && body.access_token) {
    return { kind: 'token', token: body.access_token };
  }
  if (httpStatus === 409 || Number(body.status) === 409 || (ok && body.isVerified === false)) {
    return { kind: 'verify', message: body.message ?? '' };
  }
  return { kind: 'error', message: body.message || LOGIN_MESSAGES.unexpected };
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

export default function LoginPage() {
  const ids = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const hydrated = useHydrated();

  const [step, setStep] = useState<Step>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  /** The entry notice was dismissed (a new log-in attempt replaces it). */
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  const [resendNotice, setResendNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'login' | 'verify' | 'resend' | null>(null);
  const [otpEmail, setOtpEmail] = useState('');
  /** The credentials the OTP step logs in with again (spec section 4). */
  const kept = useRef<{ email: string; password: string } | null>(null);

  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

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

  useEffect(() => {
    if (step === 'otp') codeInput.current?.focus();
  }, [step]);

  const finish = (token: string) => {
    kept.current = null;
    setPassword('');
    setToken(token);
    void navigate(destination(location.state), { replace: true });
  };

  const submitLogin = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    const emailProblem = address ? null : LOGIN_MESSAGES.emailRequired;
    const passwordProblem = password ? null : LOGIN_MESSAGES.passwordRequired;
    setEmailError(emailProblem);
    setPasswordError(passwordProblem);
    if (emailProblem || passwordProblem) {
      setBanner(null);
      (emailProblem ? emailInput : passwordInput).current?.focus();
      return;
    }
    setBusy('login');
    setBanner(null);
    setNoticeDismissed(true);
    try {
      const outcome = await logIn(address, password);
      if (outcome.kind === 'token') {
        finish(outcome.token);
        return;
      }
      if (outcome.kind === 'verify') {
        kept.current = { email: address, password };
        setOtpEmail(address);
        setCode('');
        setCodeError(null);
        setResendNotice(null);
        setStep('otp');
        return;
      }
      setBanner(outcome.message);
      passwordInput.current?.focus();
    } catch (error) {
      setBanner(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  const submitCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !kept.current) return;
    const otp = code.trim();
    const problem = !otp ? LOGIN_MESSAGES.codeRequired : /^\d{6}$/.test(otp) ? null : LOGIN_MESSAGES.codeFormat;
    setCodeError(problem);
    if (problem) {
      setBanner(null);
      codeInput.current?.focus();
      return;
    }
    const credentials = kept.current;
    setBusy('verify');
    setBanner(null);
    setResendNotice(null);
    try {
      const verified = await postJson<PlainReply>('/api/auth/verify-otp', { email: credentials.email, otp });
      if (!verified.body.isSuccessful || verified.httpStatus >= 400) {
        setBanner(verified.body.message || 'The code could not be verified.');
        codeInput.current?.focus();
        return;
      }
      // Verified: log in again with the same credentials (spec section 4).
      const outcome = await logIn(credentials.email, credentials.password);
      if (outcome.kind === 'token') {
        finish(outcome.token);
        return;
      }
      setBanner(outcome.message || LOGIN_MESSAGES.unexpected);
    } catch (error) {
      setBanner(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  const resend = async () => {
    if (busy || !kept.current) return;
    setBusy('resend');
    setBanner(null);
    setResendNotice(null);
    try {
      const reply = await postJson<PlainReply>('/api/auth/resend-otp', { email: kept.current.email });
      if (reply.body.isSuccessful && reply.httpStatus < 400) {
        setResendNotice(reply.body.message || 'A new code is on its way.');
        setCode('');
        setCodeError(null);
        codeInput.current?.focus();
      } else {
        setBanner(reply.body.message || 'A new code could not be sent.');
      }
    } catch (error) {
      setBanner(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  const backToLogin = () => {
    kept.current = null;
    setStep('login');
    setCode('');
    setCodeError(null);
    setBanner(null);
    setResendNotice(null);
    requestAnimationFrame(() => passwordInput.current?.focus());
  };

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
          {step === 'login' ? 'Admin login' : 'Check your e-mail'}
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
          <form method="post" noValidate onSubmit={(event) => void submitLogin(event)} className="mt-6 space-y-5">
            <div>
              <label htmlFor={emailId} className="mb-1.5 block font-semibold text-gray-900">
                Email
              </label>
              <input
                id={emailId}
                ref={emailInput}
                name="email"
                type="email"
                inputMode="email"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                required
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  if (emailError) setEmailError(null);
                }}
                aria-invalid={!!emailError}
                aria-describedby={emailError ? `${emailId}-error` : undefined}
                className={inputClass(!!emailError)}
              />
              {emailError ? (
                <p
                  id={`${emailId}-error`}
                  data-testid="email-error"
                  className="mt-1.5 text-sm font-medium text-red-800"
                >
                  {emailError}
                </p>
              ) : null}
            </div>

            <div>
              <label htmlFor={passwordId} className="mb-1.5 block font-semibold text-gray-900">
                Password
              </label>
              <div className="relative">
                <input
                  id={passwordId}
                  ref={passwordInput}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  autoCapitalize="none"
                  spellCheck={false}
                  required
                  value={password}
                  onChange={(event) => {
                    setPassword(event.target.value);
                    if (passwordError) setPasswordError(null);
                  }}
                  aria-invalid={!!passwordError}
                  aria-describedby={passwordError ? `${passwordId}-error` : undefined}
                  className={`${inputClass(!!passwordError)} pr-14`}
                />
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
              </div>
              {passwordError ? (
                <p
                  id={`${passwordId}-error`}
                  data-testid="password-error"
                  className="mt-1.5 text-sm font-medium text-red-800"
                >
                  {passwordError}
                </p>
              ) : null}
            </div>

            {banner ? <ErrorBanner message={banner} testId="login-error" /> : null}

            <button type="submit" disabled={!hydrated || busy !== null} className={primaryButton}>
              {busy === 'login' ? <ButtonSpinner /> : null}
              Log in
            </button>
          </form>
        ) : (
          <>
            <p className="mt-3 text-gray-700" data-testid="otp-intro">
              We sent a 6-digit code to <span className="font-semibold text-gray-900 break-all">{otpEmail}</span>
            </p>
            {resendNotice ? (
              <p
                role="status"
                data-testid="resend-notice"
                className="mt-4 rounded-xl border border-green-200 bg-green-50 px-4 py-3 text-sm font-medium text-green-900"
              >
                {resendNotice}
              </p>
            ) : null}
            <form noValidate onSubmit={(event) => void submitCode(event)} className="mt-6 space-y-5">
              <div>
                <label htmlFor={codeId} className="mb-1.5 block font-semibold text-gray-900">
                  6-digit code
                </label>
                <input
                  id={codeId}
                  ref={codeInput}
                  name="otp"
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]*"
                  maxLength={6}
                  placeholder="123456"
                  required
                  value={code}
                  onChange={(event) => {
                    setCode(event.target.value.replace(/\s+/g, ''));
                    if (codeError) setCodeError(null);
                  }}
                  aria-invalid={!!codeError}
                  aria-describedby={codeError ? `${codeId}-error` : undefined}
                  className={`${inputClass(!!codeError)} font-mono text-lg tracking-[0.4em]`}
                />
                {codeError ? (
                  <p
                    id={`${codeId}-error`}
                    data-testid="code-error"
                    className="mt-1.5 text-sm font-medium text-red-800"
                  >
                    {codeError}
                  </p>
                ) : null}
              </div>

              {banner ? <ErrorBanner message={banner} testId="login-error" /> : null}

              <button type="submit" disabled={busy !== null} className={primaryButton}>
                {busy === 'verify' ? <ButtonSpinner /> : null}
                Verify
              </button>
            </form>
            <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
              <p className="text-gray-700">
                No code?{' '}
                <button type="button" onClick={() => void resend()} disabled={busy !== null} className={linkButton}>
                  Resend
                </button>
              </p>
              <button type="button" onClick={backToLogin} disabled={busy === 'verify'} className={linkButton}>
                Back to login
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
