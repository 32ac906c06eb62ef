import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import type { Route } from './+types/admins';
import type { PendingInvitation, TeamMember } from '../../../core/auth/invitations.ts';
import { ADMIN_ROLES, type AdminRole, ROLE_LABELS } from '../../../core/auth/roles.ts';
import { ConfirmDialog } from '../../admin/blog/ConfirmDialog.tsx';
import { adminFieldClass, adminPrimaryButtonClass, adminSecondaryButtonClass } from '../../admin/list-parts.tsx';
import { ButtonSpinner, formatAdminDate } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { ApiError, messageOf } from '../../api/client.ts';
import { useFormCheck } from '../../components/use-form-check.ts';

/**
 * The owner's team (decision 041): every admin with role, last login and second factor; the open
 * invitations; invite by e-mail and role; change a role; remove an admin. The server refuses a
 * change to your own role or account and anything that would leave the store without an owner;
 * this page does not offer those buttons in the first place. Owner only: the layout shows support
 * admins its "only the store owner" page instead, and the API answers them 403.
 */

const page = adminPage({
  title: 'Admins',
  titleId: 'admins-title',
  description:
    'Who can open the admin area. Owners can do everything; support admins handle orders, messages and reviews.',
  loading: { label: 'Loading admins...', testId: 'admins-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

interface Team {
  admins: TeamMember[];
  invitations: PendingInvitation[];
}

type TeamLoad = AdminLoad<{ team: Team; me: string | null }>;

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<TeamLoad> {
  return loadAdminData('GET /api/admin/admins', async () => {
    const [team, me] = await Promise.all([
      adminApi.get<Team>('/api/admin/admins', { signal: request.signal }),
      adminApi.get<{ email: string }>('/api/auth/me', { signal: request.signal }),
    ]);
    return { team, me: me.email };
  });
}

/** Reloads the page's data after a change. */
function useReload() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void navigate(`${location.pathname}${location.search}`, { replace: true });
}

const INVITE_FIELDS = ['email', 'role'] as const;

function InviteForm() {
  const toasts = useToasts();
  const reload = useReload();
  const emailId = useId();
  const roleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRole>('support');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /**
   * The store's form style (decision 052). The invitation's rules (an address the store can mail,
   * not already an admin) are the server's alone: its refusals land under the field they name.
   */
  const check = useFormCheck({
    fields: INVITE_FIELDS,
    check: () => ({ ok: true, value: { email, role } }),
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const emailError = check.errorOf('email');

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    check.submit(form);
    setSending(true);
    setError(null);
    try {
      const reply = await adminApi.send<{ message: string }>('POST', '/api/admin/admins/invitations', {
        body: { email, role },
      });
      toasts.show(`${reply.message} ${email} has 72 hours to accept.`, 'success');
      setEmail('');
      reload();
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      const elsewhere = failure instanceof ApiError ? check.refuseFields(failure.fieldErrors, form) : [];
      const onField = failure instanceof ApiError && elsewhere.length < failure.fieldErrors.length;
      setError(onField ? null : messageOf(failure));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void invite(event)}
      onInput={check.onInput}
      noValidate
      data-testid="invite-form"
      aria-labelledby="invite-title"
      className="rounded-2xl border border-gray-200 bg-white p-4 sm:p-6"
    >
      <h2 id="invite-title" className="text-lg font-bold text-gray-900">
        Invite an admin
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        We e-mail a link to set a password (valid 72 hours, once). Inviting the same address again replaces the link.
      </p>
      {error ? (
        <p
          role="alert"
          data-testid="invite-error"
          className="mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800"
        >
          {error}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="flex min-w-0 flex-1 basis-64 flex-col gap-1">
          <label htmlFor={emailId} className="text-sm font-semibold text-gray-900">
            E-mail
          </label>
          <input
            id={emailId}
            type="email"
            name="email"
            autoComplete="off"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${emailId}-error` : undefined}
            className={`${adminFieldClass} w-full`}
          />
          {emailError ? (
            <p id={`${emailId}-error`} data-testid="invite-email-error" className="text-sm font-medium text-red-800">
              {emailError}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={roleId} className="text-sm font-semibold text-gray-900">
            Role
          </label>
          <select
            id={roleId}
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value as AdminRole)}
            className={adminFieldClass}
          >
            {ADMIN_ROLES.map((value) => (
              <option key={value} value={value}>
                {ROLE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={adminPrimaryButtonClass} disabled={sending}>
          {sending ? <ButtonSpinner /> : null}
          Send invitation
        </button>
      </div>
    </form>
  );
}

function RoleSelect({ admin }: { admin: TeamMember }) {
  const toasts = useToasts();
  const reload = useReload();
  const id = useId();
  const [saving, setSaving] = useState(false);

  async function change(role: AdminRole) {
    setSaving(true);
    try {
      const reply = await adminApi.send<{ message: string }>('PATCH', `/api/admin/admins/${admin.id}`, {
        body: { role },
      });
      toasts.show(`${reply.message} ${admin.email} is now ${ROLE_LABELS[role].toLowerCase()}.`, 'success');
    } catch (failure) {
      if (!isUnauthorized(failure)) toasts.show(messageOf(failure), 'error');
    } finally {
      setSaving(false);
      reload();
    }
  }

  return (
    <>
      <label htmlFor={id} className="sr-only">
        Role of {admin.email}
      </label>
      <select
        id={id}
        value={admin.role}
        disabled={saving}
        onChange={(event) => void change(event.target.value as AdminRole)}
        className={`${adminFieldClass} py-1 text-sm`}
        data-testid="role-select"
      >
        {ADMIN_ROLES.map((value) => (
          <option key={value} value={value}>
            {ROLE_LABELS[value]}
          </option>
        ))}
      </select>
    </>
  );
}

function RemoveButton({
  label,
  url,
  question,
  testId,
}: {
  label: string;
  url: string;
  question: string;
  testId: string;
}) {
  const toasts = useToasts();
  const reload = useReload();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  async function remove() {
    setBusy(true);
    try {
      const reply = await adminApi.send<{ message: string }>('DELETE', url);
      toasts.show(reply.message, 'success');
    } catch (failure) {
      if (!isUnauthorized(failure)) toasts.show(messageOf(failure), 'error');
    } finally {
      setBusy(false);
      setOpen(false);
      reload();
    }
  }

  return (
    <>
      <button
        type="button"
        className={`${adminSecondaryButtonClass} py-1`}
        onClick={() => setOpen(true)}
        data-testid={testId}
      >
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={label}
        text={question}
        confirmLabel={label}
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

function AdminsTable({ admins, me }: { admins: TeamMember[]; me: string | null }) {
  const owners = admins.filter((admin) => admin.role === 'owner').length;
  return (
    <div className="relative mt-6 md:rounded-2xl md:border md:border-gray-200 md:bg-white">
      <table
        data-testid="admins-table"
        className="block w-full text-left text-sm md:table md:divide-y md:divide-gray-200"
      >
        <caption className="sr-only">Admins, with role, last login and second factor</caption>
        <thead className="hidden bg-gray-50 text-xs font-bold tracking-wide text-gray-700 uppercase md:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3">
              Admin
            </th>
            <th scope="col" className="px-4 py-3">
              Role
            </th>
            <th scope="col" className="px-4 py-3">
              Last login
            </th>
            <th scope="col" className="px-4 py-3">
              Second factor
            </th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-gray-100">
          {admins.map((admin) => {
            const self = admin.email === me;
            // The last owner stays an owner (the server refuses it too).
            const locked = self || (admin.role === 'owner' && owners <= 1);
            return (
              <tr
                key={admin.id}
                data-testid="admin-row"
                className="flex flex-col gap-1 rounded-2xl border border-gray-200 bg-white p-4 md:table-row md:rounded-none md:border-0 md:p-0"
              >
                <td className="font-semibold break-all text-gray-900 md:px-4 md:py-3">
                  {admin.email}
                  {self ? <span className="ml-2 text-xs font-normal text-gray-700">(you)</span> : null}
                </td>
                <td className="text-gray-900 md:px-4 md:py-3">
                  {locked ? (
                    <span data-testid="admin-role">{ROLE_LABELS[admin.role]}</span>
                  ) : (
                    <RoleSelect admin={admin} />
                  )}
                </td>
                <td className="text-gray-700 md:px-4 md:py-3 md:whitespace-nowrap">
                  <span className="md:sr-only">Last login: </span>
                  {admin.lastLoginAt ? formatAdminDate(admin.lastLoginAt) : 'Never'}
                </td>
                <td className="text-gray-700 md:px-4 md:py-3">
                  <span className="md:sr-only">Second factor: </span>
                  {!admin.isVerified
                    ? 'Not set up yet (first login pending)'
                    : admin.secondFactor === 'totp'
                      ? 'Authenticator app'
                      : 'E-mailed code'}
                </td>
                <td className="mt-2 md:mt-0 md:px-4 md:py-3 md:text-right">
                  {locked ? null : (
                    <RemoveButton
                      label="Remove"
                      url={`/api/admin/admins/${admin.id}`}
                      question={`Remove ${admin.email}? Their sessions end now and they can no longer log in.`}
                      testId="remove-admin"
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function InvitationsList({ invitations }: { invitations: PendingInvitation[] }) {
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="invitations-title" className="mt-8">
      <h2 id="invitations-title" className="text-lg font-bold text-gray-900">
        Open invitations
      </h2>
      <ul className="mt-3 flex flex-col gap-3" data-testid="invitations">
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-gray-200 bg-white p-4"
          >
            <div className="min-w-0">
              <p className="font-semibold break-all text-gray-900">{invitation.email}</p>
              <p className="text-sm text-gray-700">
                {ROLE_LABELS[invitation.role]} · expires {formatAdminDate(invitation.expiresAt)}
                {invitation.invitedBy ? ` · invited by ${invitation.invitedBy}` : ''}
              </p>
            </div>
            <RemoveButton
              label="Withdraw"
              url={`/api/admin/admins/invitations/${invitation.id}`}
              question={`Withdraw the invitation to ${invitation.email}? Its link stops working.`}
              testId="withdraw-invitation"
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function AdminsPage({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <section aria-labelledby={page.titleId} aria-busy={navigation.state === 'loading'}>
      <page.Title />
      <InviteForm />
      {!loaderData.ok ? (
        <AdminLoadFailed load={loaderData} />
      ) : (
        <>
          <AdminsTable admins={loaderData.team.admins} me={loaderData.me} />
          <InvitationsList invitations={loaderData.team.invitations} />
        </>
      )}
    </section>
  );
}
