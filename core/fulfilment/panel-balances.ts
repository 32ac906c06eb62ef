/**
 * Supplier panel balances: the cached reading the dashboard and the suppliers page show, and the
 * low-balance job. Below a panel's threshold, a compare-and-set on `low_balance_alerted_at`
 * (null → now) decides the one run that e-mails the owners, in the same transaction as the
 * queued mails; back above, the mark is cleared (re-armed).
 */
import { enqueueMail } from '../mail/send-mail-job.ts';
import { renderMail } from '../mail/templates/layout.ts';
import { formatAmountE4 } from '../money/money.ts';
import { type SupplierAdminDeps, thresholdText } from './panels-admin-deps.ts';
import { type BalanceReading, createSupplierBalance } from './supplier-balance.ts';
import type { PanelBalance } from './supplier-contracts.ts';
import type { SupplierBalance } from './supplier.ts';

/** "-1.5", "100.84", "12.345678" → ten-thousandths (rounded); null when it is not a number. */
export function balanceE4(balance: string): number | null {
  if (!/^-?\d{1,12}(\.\d+)?$/.test(balance.trim())) return null;
  return Math.round(Number(balance.trim()) * 10_000);
}

/** Keeps the currency the panel last named, for the tier editor's price checks. */
export async function rememberCurrency(
  { db }: Pick<SupplierAdminDeps, 'db'>,
  panelId: number,
  answer: SupplierBalance,
): Promise<void> {
  if (!answer.currency) return;
  await db
    .updateTable('supplier_panels')
    .set({ currency: answer.currency })
    .where('id', '=', panelId)
    .where((eb) => eb.or([eb('currency', 'is', null), eb('currency', '!=', answer.currency)]))
    .execute();
}

/** The panel's once-a-minute balance reader, made on first use. */
function balanceReader(deps: SupplierAdminDeps, panelId: number): () => Promise<BalanceReading> {
  let reader = deps.balanceReaders.get(panelId);
  if (!reader) {
    reader = createSupplierBalance({
      ask: async () => (await deps.panels.get(panelId)).balance(),
      now: () => deps.now(),
      onError: (error) => deps.onBalanceError?.(panelId, error),
      onAnswer: (answer) => rememberCurrency(deps, panelId, answer),
    });
    deps.balanceReaders.set(panelId, reader);
  }
  return reader;
}

/** The next balance read asks the panel again (its URL or key changed, or it went). */
export function forgetBalanceReader(deps: Pick<SupplierAdminDeps, 'balanceReaders'>, panelId: number): void {
  deps.balanceReaders.delete(panelId);
}

/** Every panel's balance (each asked at most once a minute), for the dashboard and the suppliers page. */
export async function panelBalances(deps: SupplierAdminDeps): Promise<PanelBalance[]> {
  const rows = await deps.db
    .selectFrom('supplier_panels')
    .select(['id', 'name', 'low_balance_threshold_e4'])
    .orderBy('id')
    .execute();
  return Promise.all(
    rows.map(async (row) => ({
      panelId: row.id,
      name: row.name,
      lowBalanceThreshold: thresholdText(row.low_balance_threshold_e4),
      reading: await balanceReader(deps, row.id)(),
    })),
  );
}

export interface LowBalanceCheck {
  checked: number;
  alerted: number;
  rearmed: number;
  failed: number;
}

/**
 * The low-balance job: asks each panel with a threshold (fresh, not the dashboard's cached
 * reading), e-mails the owners once per drop below it, re-arms once it is back above.
 */
export async function checkLowBalances(deps: SupplierAdminDeps): Promise<LowBalanceCheck> {
  const { db } = deps;
  const rows = await db
    .selectFrom('supplier_panels')
    .select(['id', 'name', 'low_balance_threshold_e4'])
    .where('low_balance_threshold_e4', 'is not', null)
    .orderBy('id')
    .execute();
  const result = { checked: 0, alerted: 0, rearmed: 0, failed: 0 };
  for (const row of rows) {
    const threshold = Number(row.low_balance_threshold_e4);
    let answer: SupplierBalance;
    try {
      answer = await (await deps.panels.get(row.id)).balance();
    } catch (error) {
      result.failed += 1;
      deps.onBalanceError?.(row.id, error);
      continue;
    }
    result.checked += 1;
    await rememberCurrency(deps, row.id, answer);
    const balance = balanceE4(answer.balance);
    if (balance === null) {
      result.failed += 1;
      continue;
    }
    if (balance >= threshold) {
      const rearmed = await db
        .updateTable('supplier_panels')
        .set({ low_balance_alerted_at: null })
        .where('id', '=', row.id)
        .where('low_balance_alerted_at', 'is not', null)
        .executeTakeFirst();
      result.rearmed += Number(rearmed.numUpdatedRows);
      continue;
    }
    const at = deps.now();
    const sent = await db.transaction().execute(async (trx) => {
      // The compare-and-set: of two racing runs (two instances, a retried job) one wins.
      const claimed = await trx
        .updateTable('supplier_panels')
        .set({ low_balance_alerted_at: at.toISOString() })
        .where('id', '=', row.id)
        .where('low_balance_alerted_at', 'is', null)
        .where('low_balance_threshold_e4', '=', threshold)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return false;
      const owners = await trx
        .selectFrom('admins')
        .select(['id', 'email'])
        .where('role', '=', 'owner')
        .orderBy('id')
        .execute();
      const mail = renderLowBalanceMail({
        panelName: row.name,
        balance: answer.balance,
        currency: answer.currency,
        threshold: formatAmountE4(threshold, 2),
        publicUrl: deps.publicUrl,
      });
      for (const owner of owners) {
        await enqueueMail(
          trx,
          { to: owner.email, ...mail },
          { dedupeKey: `low-balance:${row.id}:${at.toISOString()}:${owner.id}`, now: at },
        );
      }
      return true;
    });
    if (sent) result.alerted += 1;
  }
  return result;
}

function suppliersPageUrl(publicUrl: string): string {
  try {
    return new URL('/admin/suppliers', publicUrl).toString();
  } catch {
    return '#';
  }
}

export function renderLowBalanceMail(alert: {
  panelName: string;
  balance: string;
  currency: string;
  threshold: string;
  publicUrl: string;
}) {
  const money = (amount: string) => (alert.currency ? `${amount} ${alert.currency}` : amount);
  return renderMail({
    subject: `Boostly: the balance of supplier panel "${alert.panelName}" is low`,
    preheader: `${money(alert.balance)} left, below your threshold of ${money(alert.threshold)}.`,
    heading: 'A supplier balance is low',
    intro: `The balance of the supplier panel "${alert.panelName}" dropped below the threshold you set. Orders it cannot pay for wait and are retried; top it up at the panel.`,
    facts: [
      ['Panel', alert.panelName],
      ['Balance', money(alert.balance)],
      ['Threshold', money(alert.threshold)],
    ],
    button: { label: 'Open suppliers', url: suppliersPageUrl(alert.publicUrl) },
    footer: 'This alert goes to every owner account, once per drop below the threshold.',
  });
}
