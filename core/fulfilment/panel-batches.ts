/**
 * The status syncs (supplier orders, refills) ask each panel about its own rows in one multi call:
 * ids are each panel's own (two panels may both have an order 23501). One panel down must not stop
 * the others; the first failure is thrown after every panel had its turn, so the job still fails
 * and logs.
 */

/** Rows grouped by the panel they belong to, in the order they came. */
export function groupByPanel<Row extends { supplier_panel_id: number }>(
  rows: readonly Row[],
): Map<number, Omit<Row, 'supplier_panel_id'>[]> {
  const byPanel = new Map<number, Omit<Row, 'supplier_panel_id'>[]>();
  for (const { supplier_panel_id: panelId, ...row } of rows) {
    const list = byPanel.get(panelId) ?? [];
    list.push(row);
    byPanel.set(panelId, list);
  }
  return byPanel;
}

/** Runs `sync` for every panel's rows and adds up what it counted; rethrows the first failure at the end. */
export async function syncEachPanel<Row>(
  byPanel: ReadonlyMap<number, Row[]>,
  sync: (panelId: number, rows: Row[]) => Promise<number>,
): Promise<number> {
  let total = 0;
  let firstFailure: Error | null = null;
  for (const [panelId, rows] of byPanel) {
    try {
      total += await sync(panelId, rows);
    } catch (error) {
      firstFailure ??= error instanceof Error ? error : new Error(String(error));
    }
  }
  if (firstFailure !== null) throw firstFailure;
  return total;
}
