/**
 * A mail sent again after a crash is the same message: its Message-ID is derived from what the
 * mail is (its job's dedupe key and the sender's domain), not made up per attempt. The worker
 * "dies" after the SMTP server accepted a receipt but before the job was marked done: the lease
 * runs out, a second worker sends it again, and both deliveries carry one Message-ID. Against a
 * real SMTP server, on each dialect.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobWorker } from '../../core/jobs/worker.ts';
import { type Mailer, createSmtpMailer, stableMessageId } from '../../core/mail/mailer.ts';
import { createSendMailHandler, enqueueMail } from '../../core/mail/send-mail-job.ts';
import { renderReceipt } from '../../core/mail/templates/receipt.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const FROM = 'Boostly <orders@boostly.test>';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const receipt = (orderNumber: string) => ({
  to: 'ana@example.com',
  ...renderReceipt({
    orderNumber,
    serviceName: 'Instagram Followers',
    target: 'boostly.demo',
    quantity: 1000,
    amountText: '$2.99',
    trackingUrl: `http://localhost:3000/order/${orderNumber}`,
    email: 'ana@example.com',
  }),
});

describe('stable Message-IDs', () => {
  it('is the same for the same mail and differs between mails, in the sender’s domain', () => {
    expect(stableMessageId('receipt:42', FROM)).toBe(stableMessageId('receipt:42', FROM));
    expect(stableMessageId('receipt:42', FROM)).not.toBe(stableMessageId('receipt:43', FROM));
    expect(stableMessageId('receipt:42', FROM)).toMatch(/^<receipt\.42\.[0-9a-f]{12}@boostly\.test>$/);
    expect(stableMessageId('status-mail:7:In Progress', 'orders@shop.example')).toMatch(
      /^<status-mail\.7\.In\.Progress\.[0-9a-f]{12}@shop\.example>$/,
    );
  });
});

describe.each(dialects)('a mail resent after its worker died on %s', (dialect) => {
  let database: TestDatabase;
  let sink: SmtpSink;
  let mailer: Mailer;

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
    sink = await startSmtpSink();
    mailer = createSmtpMailer({ url: sink.url, from: FROM, logger: quiet });
  });
  afterEach(async () => {
    await mailer.close();
    await sink.close();
    await database.dispose();
  });

  const worker = (workerId: string) =>
    createJobWorker({ db: database.db, handlers: [createSendMailHandler(mailer)], workerId, logger: quiet });

  it('carries the same Message-ID when a second worker sends it again', async () => {
    const queued = await enqueueMail(database.db, receipt('BST-777'), { dedupeKey: 'receipt:777' });
    if (!queued.enqueued) throw new Error('not enqueued');
    expect(await worker('first').runOnce()).toBe(1);
    await sink.waitForMessage((m) => m.subject.includes('BST-777'));

    // The first worker was killed after the server's acceptance, before `done`: its lease ran out.
    await database.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'first', locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', queued.id)
      .execute();
    expect(await worker('second').runOnce()).toBe(1);

    const deliveries = sink.messages.filter((m) => m.subject.includes('BST-777'));
    expect(deliveries).toHaveLength(2);
    const ids = deliveries.map((m) => m.parsed.messageId);
    expect(ids[0]).toBe(stableMessageId('receipt:777', FROM));
    expect(ids[1]).toBe(ids[0]);

    // Another mail is another message.
    await enqueueMail(database.db, receipt('BST-778'), { dedupeKey: 'receipt:778' });
    await worker('second').runOnce();
    const other = await sink.waitForMessage((m) => m.subject.includes('BST-778'));
    expect(other.parsed.messageId).not.toBe(ids[0]);
  });
});
