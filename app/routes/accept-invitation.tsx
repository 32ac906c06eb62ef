import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { Route } from './+types/accept-invitation';
import { ApiError, api, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { ButtonSpinner, ErrorBanner, inputClass, primaryButton } from '../components/form.tsx';
import { useFormCheck } from '../components/use-form-check.ts';
import { useHydrated } from '../hydrated.ts';
import { privatePageMeta } from '../seo/meta.ts';

/**
 * Accepting an admin invitation (decision 041). The e-mailed link carries its single-use token in
 * the fragment (`#token=…`), which the browser never sends to the server, so no request log holds
 * it; the page reads it in the browser, asks the API what the invitation is for, and lets the new
 * admin set a password (the store's password rules, checked by the server). Then the login page
 * takes over: the first login asks for the code we e-mail (decision 016), so the second factor is
 * done before the first session.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Join the admin area', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

interface Invitation {
  email: string;
  role: 'owner' | 'support';
  expiresAt: string;
}

type Load =
  | { state: 'loading' }
  | { state: 'ready'; token: string; invitation: Invitation }
  | { state: 'refused'; message: string };

const ROLE_WORDS: Record<Invitation['role'], string> = {
  owner: 'owner (everything in the admin area)',
  support: 'support (orders, messages and reviews)',
};

const PASSWORD_FIELDS = ['password', 'confirm'] as const;

function checkPasswords(values: Record<(typeof PASSWORD_FIELDS)[number], string>) {
  return values.password === values.confirm
    ? { ok: true as const, value: values.password }
    : { ok: false as const, errors: { confirm: 'The two passwords are not the same.' } };
}

function tokenFromHash(hash: string): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(hash);
  return match?.[1] ?? null;
}

export default function AcceptInvitationPage() {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const passwordId = useId();
  const confirmId = useId();
  const hintId = useId();

  // The fragment is the browser's alone: read once hydrated (the server render cannot know it).
  const token = hydrated ? tokenFromHash(window.location.hash) : null;
  const shown: Load =
    hydrated && !token
      ? { state: 'refused', message: 'This page needs the link from your invitation e-mail. Open the link again.' }
      : load;

  useEffect(() => {
    if (!token) return undefined;
    const controller = new AbortController();
    api.post<Invitation>('/api/auth/invitation', { token }, { signal: controller.signal }).then(
      (invitation) => setLoad({ state: 'ready', token, invitation }),
      (failure: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'refused', message: messageOf(failure) });
      },
    );
    return () => controller.abort();
  }, [token]);

  /** The store's form style (decision 052): the repeat is checked here, the password rules by the server. */
  const check = useFormCheck({ fields: PASSWORD_FIELDS, check: checkPasswords, validateOn: 'submit' });
  const passwordError = check.errorOf('password');
  const confirmError = check.errorOf('confirm');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (shown.state !== 'ready') return;
    const form = event.currentTarget;
    setError(null);
    if (check.submit(form) === null) return;
    setSaving(true);
    setError(null);
    try {
      const reply = await api.send<{ message: string }>('POST', '/api/auth/invitation/accept', {
        body: { token: shown.token, password },
      });
      void navigate('/login', { replace: true, state: { notice: reply.message } });
    } catch (failure) {
      // 410: used or expired meanwhile; the page says so instead of the form.
      if (failure instanceof ApiError && failure.status === 410)
        setLoad({ state: 'refused', message: failure.message });
      else {
        // The server's password rules answer under the password; anything else is the banner's.
        const elsewhere = failure instanceof ApiError ? check.refuseFields(failure.fieldErrors, form) : [];
        const onField = failure instanceof ApiError && elsewhere.length < failure.fieldErrors.length;
        setError(onField ? null : messageOf(failure));
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Join the Boostly admin area</h1>
      {shown.state === 'loading' ? (
        <p role="status" className="mt-6 text-gray-700">
          Checking your invitation…
        </p>
      ) : shown.state === 'refused' ? (
        <div className="mt-6 flex flex-col gap-4">
          <ErrorBanner message={shown.message} testId="invitation-refused" />
          <p className="text-gray-700">
            Already set your password?{' '}
            <Link to="/login" className="font-semibold text-brand-700 underline hover:text-brand-800">
              Log in
            </Link>
          </p>
        </div>
      ) : (
        <form
          className="mt-6 flex flex-col gap-5"
          onSubmit={(event) => void submit(event)}
          onInput={check.onInput}
          noValidate
        >
          <p className="text-gray-700" data-testid="invitation-for">
            You are invited as <strong className="text-gray-900">{ROLE_WORDS[shown.invitation.role]}</strong> with{' '}
            <strong className="break-all text-gray-900">{shown.invitation.email}</strong>. Choose a password; your first
            login then asks for a code we e-mail you.
          </p>
          {error ? <ErrorBanner message={error} testId="invitation-error" /> : null}
          <div className="flex flex-col gap-2">
            <label htmlFor={passwordId} className="font-semibold text-gray-900">
              New password
            </label>
            <input
              id={passwordId}
              name="password"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={!!passwordError}
              aria-describedby={passwordError ? `${passwordId}-error ${hintId}` : hintId}
              className={inputClass(!!passwordError)}
            />
            {passwordError ? (
              <p id={`${passwordId}-error`} data-testid="password-error" className="text-sm font-medium text-red-800">
                {passwordError}
              </p>
            ) : null}
            <p id={hintId} className="text-sm text-gray-700">
              At least 12 characters. A few unrelated words make a strong password.
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <label htmlFor={confirmId} className="font-semibold text-gray-900">
              Repeat the password
            </label>
            <input
              id={confirmId}
              name="confirm"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
              aria-invalid={!!confirmError}
              aria-describedby={confirmError ? `${confirmId}-error` : undefined}
              className={inputClass(!!confirmError)}
            />
            {confirmError ? (
              <p id={`${confirmId}-error`} data-testid="confirm-error" className="text-sm font-medium text-red-800">
                {confirmError}
              </p>
            ) : null}
          </div>
          <button type="submit" className={primaryButton} disabled={saving}>
            {saving ? <ButtonSpinner /> : null}
            Set my password
          </button>
        </form>
      )}
    </div>
  );
}
