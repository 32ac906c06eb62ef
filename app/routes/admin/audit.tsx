import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/audit';
import { auditActionWords } from '../../../core/audit/action-words.ts';
import type { AuditEntry } from '../../../core/audit/audit.ts';
import { type AuditFieldRow, auditSummaryView } from '../../../core/audit/display.ts';
import type { TeamMember } from '../../../core/auth/invitations.ts';
import {
  AdminSearchForm,
  ListEmpty,
  ListLoadError,
  ListLoadMore,
  ListLoading,
  adminFieldClass,
} from '../../admin/list-parts.tsx';
import { formatAdminDate } from '../../admin/orders.tsx';
import { adminPage } from '../../admin/page.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { isAbort, messageOf } from '../../api/client.ts';

/**
 * The audit log (decision 041), owner only: every admin action that changed something (or tried
 * to and was refused), newest first: when, who, what, on which target, the outcome, and the
 * before/after summary. A text search over action, target and admin, filters by action and by
 * admin (kept in the address, so a filtered view can be shared), and Load More like the other
 * admin lists.
 */

// No clientLoader (the list loads in the page, with Load More), so no HydrateFallback either.
const page = adminPage({
  title: 'Audit log',
  titleId: 'audit-title',
  description:
    'Every change made in the admin area, and every refused attempt: who, when, what and on which record. Passwords, codes, tokens and keys are never recorded.',
  loading: { label: 'Loading the audit log...', testId: 'audit-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;

interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

type ListState =
  | { state: 'loading' }
  | { state: 'ready'; entries: AuditEntry[]; next: string | null }
  | { state: 'failed'; message: string };

/** A list state and the filters (and retry) it belongs to: another key means a new list is loading. */
type KeyedList = { key: string } & ListState;

function queryOf(params: URLSearchParams, before?: string): string {
  const query = new URLSearchParams();
  for (const key of ['q', 'action', 'adminId', 'targetType', 'targetId']) {
    const value = params.get(key);
    if (value) query.set(key, value);
  }
  if (before) query.set('before', before);
  const text = query.toString();
  return text ? `?${text}` : '';
}

function outcomeText(outcome: number): { label: string; tone: string } {
  if (outcome < 300) return { label: 'Done', tone: 'bg-green-100 text-green-900' };
  if (outcome === 403) return { label: 'Refused (role)', tone: 'bg-red-100 text-red-900' };
  return { label: `Refused (${outcome})`, tone: 'bg-amber-100 text-amber-900' };
}

const SUMMARY_HEADINGS = {
  change: 'Changed',
  created: 'Created',
  removed: 'Removed',
  sent: 'Sent',
} as const;

/** One field's line: "title: Old → New", or just the side there is. */
function FieldRow({ row, kind }: { row: AuditFieldRow; kind: keyof typeof SUMMARY_HEADINGS }) {
  return (
    <div className="min-w-0">
      <dt className="inline font-semibold text-gray-900">{row.field}: </dt>
      <dd className="inline break-words text-gray-700">
        {kind === 'change' ? (
          <>
            <span className="line-through decoration-gray-400">{row.before ?? 'none'}</span>
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> changed to </span>
            <span className="font-medium text-gray-900">{row.after ?? 'none'}</span>
          </>
        ) : (
          (row.after ?? row.before)
        )}
      </dd>
    </div>
  );
}

function SummaryText({ summary }: { summary: AuditEntry['summary'] }) {
  const view = auditSummaryView(summary);
  if (view.kind === 'none') return <span className="text-gray-700">—</span>;
  if (view.kind === 'raw') {
    return (
      <dl className="flex flex-col gap-1 text-xs" data-testid="audit-summary">
        {view.before !== null ? (
          <div className="min-w-0">
            <dt className="inline font-semibold text-gray-900">Before: </dt>
            <dd className="inline font-mono break-all text-gray-700">{view.before}</dd>
          </div>
        ) : null}
        {view.after !== null ? (
          <div className="min-w-0">
            <dt className="inline font-semibold text-gray-900">After: </dt>
            <dd className="inline font-mono break-all text-gray-700">{view.after}</dd>
          </div>
        ) : null}
      </dl>
    );
  }
  return (
    <div className="text-xs" data-testid="audit-summary">
      <p className="font-semibold text-gray-900">{SUMMARY_HEADINGS[view.kind]}</p>
      <dl className="mt-1 flex flex-col gap-1">
        {view.rows.map((row) => (
          <FieldRow key={row.field} row={row} kind={view.kind} />
        ))}
      </dl>
    </div>
  );
}

export default function AuditPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const search = params.toString();
  const [attempt, setAttempt] = useState(0);
  const listKey = `${search}|${attempt}`;
  const [keyed, setKeyed] = useState<KeyedList>({ key: '', state: 'loading' });
  const list: ListState = keyed.key === listKey ? keyed : { state: 'loading' };
  const [keyword, setKeyword] = useState(params.get('q') ?? '');
  const [moreLoading, setMoreLoading] = useState(false);
  const [moreFailure, setMoreFailure] = useState<{ key: string; message: string } | null>(null);
  const moreError = moreFailure?.key === listKey ? moreFailure.message : null;
  const [actions, setActions] = useState<string[]>([]);
  const [admins, setAdmins] = useState<TeamMember[]>([]);
  const actionId = useId();
  const adminId = useId();

  // The filters' menus.
  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      adminApi.get<string[]>('/api/admin/audit/actions', { signal: controller.signal }),
      adminApi.get<{ admins: TeamMember[] }>('/api/admin/admins', { signal: controller.signal }),
    ]).then(
      ([actionList, team]) => {
        setActions(actionList);
        setAdmins(team.admins);
      },
      (error: unknown) => {
        if (!isAbort(error) && !isUnauthorized(error)) console.error('audit filters failed', error);
      },
    );
    return () => controller.abort();
  }, []);

  // The first page, whenever the filters in the address change.
  useEffect(() => {
    const controller = new AbortController();
    const key = `${search}|${attempt}`;
    adminApi
      .get<AuditPage>(`/api/admin/audit${queryOf(new URLSearchParams(search))}`, { signal: controller.signal })
      .then(
        (page) => setKeyed({ key, state: 'ready', entries: page.entries, next: page.next }),
        (error: unknown) => {
          if (!controller.signal.aborted && !isAbort(error))
            setKeyed({ key, state: 'failed', message: messageOf(error) });
        },
      );
    return () => controller.abort();
  }, [search, attempt]);

  const setFilter = useCallback(
    (key: string, value: string) => {
      const next = new URLSearchParams(search);
      if (value) next.set(key, value);
      else next.delete(key);
      const text = next.toString();
      void navigate(text ? `?${text}` : '?', { replace: true });
    },
    [navigate, search],
  );

  async function loadMore() {
    if (list.state !== 'ready' || !list.next) return;
    setMoreLoading(true);
    setMoreFailure(null);
    try {
      const page = await adminApi.get<AuditPage>(`/api/admin/audit${queryOf(new URLSearchParams(search), list.next)}`);
      setKeyed({ key: listKey, state: 'ready', entries: [...list.entries, ...page.entries], next: page.next });
    } catch (error) {
      if (!isUnauthorized(error)) setMoreFailure({ key: listKey, message: messageOf(error) });
    } finally {
      setMoreLoading(false);
    }
  }

  const filtered = ['q', 'action', 'adminId', 'targetType', 'targetId'].some((key) => params.get(key));

  return (
    <section aria-labelledby={page.titleId} aria-busy={list.state === 'loading'}>
      <page.Title />
      <div className="flex flex-wrap items-end gap-3">
        <AdminSearchForm
          inputId="audit-search"
          label="Search the log"
          placeholder="Action, target or admin e-mail"
          maxLength={200}
          className="min-w-0 flex-1 basis-72"
          value={keyword}
          onValueChange={setKeyword}
          onSearch={() => setFilter('q', keyword.trim())}
          onCleared={() => setFilter('q', '')}
        />
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={actionId} className="text-sm font-semibold text-gray-900">
            Action
          </label>
          <select
            id={actionId}
            value={params.get('action') ?? ''}
            onChange={(event) => setFilter('action', event.target.value)}
            className={`${adminFieldClass} w-full max-w-full`}
            data-testid="audit-action-filter"
          >
            <option value="">All actions</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {auditActionWords(action)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={adminId} className="text-sm font-semibold text-gray-900">
            Admin
          </label>
          <select
            id={adminId}
            value={params.get('adminId') ?? ''}
            onChange={(event) => setFilter('adminId', event.target.value)}
            className={`${adminFieldClass} w-full max-w-full`}
          >
            <option value="">All admins</option>
            {admins.map((admin) => (
              <option key={admin.id} value={String(admin.id)}>
                {admin.email}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.state === 'loading' ? (
        <ListLoading label="Loading the audit log..." testId="audit-loading" />
      ) : list.state === 'failed' ? (
        <ListLoadError
          testId="audit-error"
          spacing="mt-6"
          intro="The audit log could not be loaded."
          message={list.message}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      ) : list.entries.length === 0 ? (
        <div className="mt-6">
          <ListEmpty
            testId="audit-empty"
            title={filtered ? 'No entries match these filters.' : 'No admin actions recorded yet.'}
            hint={
              filtered ? 'Clear the search or choose other filters.' : 'Changes made in the admin area appear here.'
            }
          />
        </div>
      ) : (
        <ol className="mt-6 flex flex-col gap-3" data-testid="audit-entries" aria-label="Audit entries, newest first">
          {list.entries.map((entry) => {
            const outcome = outcomeText(entry.outcome);
            return (
              <li
                key={entry.id}
                data-testid="audit-entry"
                className="flex flex-col gap-2 rounded-2xl border border-gray-200 bg-white p-4 text-sm"
              >
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="font-semibold break-words text-gray-900" data-testid="audit-action">
                    {auditActionWords(entry.action)}
                  </span>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${outcome.tone}`}>{outcome.label}</span>
                </div>
                <p className="break-words text-gray-700">
                  <time dateTime={entry.createdAt}>{formatAdminDate(entry.createdAt, true)}</time>
                  {' · '}
                  <span className="break-all text-gray-900">{entry.adminEmail}</span>
                  {entry.targetType ? (
                    <>
                      {' · '}
                      <span className="break-all">
                        {entry.targetType}
                        {entry.targetId ? ` ${entry.targetId}` : ''}
                      </span>
                    </>
                  ) : null}
                </p>
                <SummaryText summary={entry.summary} />
              </li>
            );
          })}
        </ol>
      )}
      <ListLoadMore
        noun="entries"
        show={list.state === 'ready' && list.next !== null}
        loading={moreLoading}
        error={moreError}
        onLoadMore={() => void loadMore()}
      />
    </section>
  );
}
