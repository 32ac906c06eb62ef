import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/security';
import type { FormCheck } from '../../../core/form-check.ts';
import type {
  SecondFactorStatusReply,
  TotpCodePayload,
  TotpEnabledReply,
  TotpSetupReply,
} from '../../../core/auth/contracts.ts';
import { CacheStrategy } from '../../cache.ts';
import { AdminPageHeader } from '../../admin/list-parts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';
import { ButtonSpinner, ErrorBanner, inputClass, primaryButton } from '../../components/form.tsx';
import { useFormCheck } from '../../components/use-form-check.ts';

/**
 * Security (decision 016): every login asks for a second factor, the e-mailed code by default.
 * Here the admin switches to the stronger one, an authenticator app (TOTP): the secret is shown
 * once as text and as the otpauth URL an app reads, a code from the app confirms it, and the ten
 * recovery codes are shown once. With a current code (or a recovery code) the admin turns it
 * off again. Loaded in the browser with the admin's token, like every admin page. A server
 * without TOTP_ENCRYPTION_KEY in production cannot enrol anyone (decision 022): the page shows
 * its reason in place of the set-up button.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Security | Boostly admin' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type SecurityLoad = { ok: true; status: SecondFactorStatusReply } | { ok: false; message: string };

export async function clientLoader({ request }: Route.ClientLoaderArgs): Promise<SecurityLoad> {
  try {
    const status = await adminApi.get<SecondFactorStatusReply>('/api/auth/second-factor', { signal: request.signal });
    return { ok: true, status };
  } catch (error) {
    if (isAbort(error)) throw error;
    return { ok: false, message: messageOf(error) };
  }
}

function Title() {
  return (
    <AdminPageHeader
      titleId="security-title"
      title="Security"
      description="Every login asks for your password and a second factor: a 6-digit code we e-mail you, or, once you turn it on, a code from an authenticator app."
    />
  );
}

export function HydrateFallback() {
  return (
    <section aria-labelledby="security-title">
      <Title />
      <p role="status" className="mt-6 text-gray-700">
        Loading...
      </p>
    </section>
  );
}

const CODE_FIELDS = ['code'] as const;

function checkCode(values: Record<'code', string>): FormCheck<'code', string> {
  const code = values.code.trim();
  return code ? { ok: true, value: code } : { ok: false, errors: { code: 'Code is required' } };
}

/** A code field and its submit button, for confirming and for turning off. */
function CodeForm({
  label,
  action,
  onSubmit,
  testId,
}: {
  label: string;
  action: string;
  onSubmit: (code: string) => Promise<void>;
  testId: string;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  /** The server's refusal of the code (wrong or used), shown where the form's own check shows. */
  const [refusal, setRefusal] = useState<string | null>(null);
  /** The store's form style (decision 052); typing clears the message. */
  const check = useFormCheck({ fields: CODE_FIELDS, check: checkCode, validateOn: 'submit', whileTyping: 'clear' });
  const error = check.errorOf('code') ?? refusal;

  return (
    <form
      data-testid={testId}
      noValidate
      className="mt-4 max-w-sm space-y-4"
      onInput={check.onInput}
      onSubmit={(event) => {
        event.preventDefault();
        if (busy) return;
        setRefusal(null);
        const checked = check.submit(event.currentTarget);
        if (checked === null) return;
        setBusy(true);
        onSubmit(checked).then(
          () => setBusy(false),
          (failure: unknown) => {
            setBusy(false);
            if (!isUnauthorized(failure)) setRefusal(messageOf(failure));
          },
        );
      }}
    >
      <div>
        <label htmlFor={id} className="mb-1.5 block font-semibold text-gray-900">
          {label}
        </label>
        <input
          id={id}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setRefusal(null);
          }}
          aria-invalid={!!error}
          className={`${inputClass(!!error)} font-mono text-lg tracking-widest`}
        />
      </div>
      {error ? <ErrorBanner message={error} testId={`${testId}-error`} /> : null}
      <button type="submit" disabled={busy} className={primaryButton}>
        {busy ? <ButtonSpinner /> : null}
        {action}
      </button>
    </form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4" data-testid="recovery-codes">
      <p className="font-semibold text-amber-900">
        Your recovery codes. Each logs you in once if you lose your phone. Store them somewhere safe now: they are not
        shown again.
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-gray-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

export default function Security({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const [setup, setSetup] = useState<TotpSetupReply | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  if (!loaderData.ok) {
    return (
      <section aria-labelledby="security-title">
        <Title />
        <div className="mt-6">
          <ErrorBanner message={loaderData.message} testId="security-error" />
        </div>
      </section>
    );
  }
  const { status } = loaderData;

  async function start() {
    setStarting(true);
    setStartError(null);
    setNotice(null);
    try {
      setSetup(await adminApi.post<TotpSetupReply>('/api/auth/totp/setup', {}));
    } catch (error) {
      if (!isUnauthorized(error)) setStartError(messageOf(error));
    } finally {
      setStarting(false);
    }
  }

  async function confirm(code: string) {
    const reply = await adminApi.post<TotpEnabledReply, TotpCodePayload>('/api/auth/totp/confirm', { code });
    setSetup(null);
    setRecoveryCodes(reply.recoveryCodes);
    await revalidator.revalidate();
  }

  async function turnOff(code: string) {
    const reply = await adminApi.send<{ message: string }, TotpCodePayload>('POST', '/api/auth/totp/disable', {
      body: { code },
    });
    setRecoveryCodes(null);
    setNotice(reply.message);
    await revalidator.revalidate();
  }

  return (
    <section aria-labelledby="security-title">
      <Title />
      <div className="mt-6 max-w-3xl rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
        <h2 className="text-xl font-bold text-gray-900">Authenticator app</h2>
        {notice ? (
          <p role="status" className="mt-3 text-sm font-medium text-green-900" data-testid="security-notice">
            {notice}
          </p>
        ) : null}

        {status.method === 'totp' ? (
          <>
            <p className="mt-2 text-gray-700" data-testid="totp-status">
              On. Logins ask for the code from your app. Recovery codes left: {status.recoveryCodesLeft}.
            </p>
            {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
            <CodeForm
              label="To turn it off, enter a code from your app or a recovery code"
              action="Turn off"
              onSubmit={turnOff}
              testId="totp-disable"
            />
          </>
        ) : (
          <>
            <p className="mt-2 text-gray-700" data-testid="totp-status">
              Off. Logins ask for a code we e-mail you.
            </p>
            {!status.totpSetup.available ? (
              // Decision 022: the server has no key to encrypt a secret with, so it would refuse
              // the set-up: say why instead of offering a button that cannot work.
              <p
                role="note"
                className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900"
                data-testid="totp-unavailable"
              >
                {status.totpSetup.reason}
              </p>
            ) : setup ? (
              <div className="mt-4" data-testid="totp-setup">
                <p className="text-gray-700">
                  Add this account to your authenticator app: open the link on your phone, or type the secret in. It is
                  shown only now.
                </p>
                <dl className="mt-3 space-y-2">
                  <div>
                    <dt className="text-sm font-semibold text-gray-900">Secret</dt>
                    <dd className="font-mono break-all text-gray-900" data-testid="totp-secret">
                      {setup.secret}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-sm font-semibold text-gray-900">Link for the app (otpauth)</dt>
                    <dd className="font-mono text-sm break-all text-gray-900">
                      <a href={setup.otpauthUrl} className="underline" data-testid="totp-url">
                        {setup.otpauthUrl}
                      </a>
                    </dd>
                  </div>
                </dl>
                <CodeForm
                  label="Then enter the 6-digit code the app shows"
                  action="Turn on"
                  onSubmit={confirm}
                  testId="totp-confirm"
                />
              </div>
            ) : (
              <>
                {startError ? (
                  <div className="mt-4">
                    <ErrorBanner message={startError} testId="totp-start-error" />
                  </div>
                ) : null}
                <button
                  type="button"
                  onClick={() => void start()}
                  disabled={starting}
                  className={`${primaryButton} mt-4`}
                >
                  {starting ? <ButtonSpinner /> : null}
                  Set up an authenticator app
                </button>
              </>
            )}
          </>
        )}
      </div>
    </section>
  );
}
