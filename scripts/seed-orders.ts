/**
 * `npm run seed:orders -- 1000000`: fills the configured database (DATA_DIR or DATABASE_URL,
 * as the server reads them) with N realistic orders, for the admin console and its benchmark
 * (`npm run bench:admin`).
 *
 * - Spread over the last two years (just inside the retention period), oldest first, so ids
 *   grow with created_at as they do in production.
 * - Customers from a pool of about N/4 e-mail addresses (repeat buyers), each with a social
 *   handle; services, plans and tiers from the catalogue in the database (weighted towards
 *   Instagram followers and small packages), targets in the stored canonical forms.
 * - Status mix by age: recent orders are unpaid, Processing or In Progress; older ones mostly
 *   Completed, some Partial and Canceled (with their refunds), a few stuck In Progress or
 *   Processing, flagged for review (supplier ambiguity, a second payment) or refused by the
 *   supplier (error message); about 5% never paid (failed card, abandoned checkout).
 *   Payment status, amounts (price rule of spec section 9), supplier facts and refunds agree.
 * - No timeline events or e-mails: the console's detail view of a seeded order shows an empty
 *   timeline.
 * - Fast batched inserts, in transactions of 50,000 rows. SQLite: 100-row INSERTs through one
 *   prepared statement on a second connection to the file. PostgreSQL: 5,000 rows per
 *   INSERT … SELECT FROM unnest(arrays); a bulk seed runs as one transaction that rebuilds the
 *   trigram index at the end instead of maintaining it row by row (see insertPostgres).
 * - The search text, the trigram index and the per-status counts are kept by the database's
 *   triggers (migration 007), as for any other insert. Conflicts on unique keys (a repeated run
 *   drawing the same e-mail and client order id) skip the row.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { createCatalogue } from '../core/catalogue/catalogue.ts';
import { chargeAmountE4 } from '../core/catalogue/pricing.ts';
import { refundDueE4 } from '../core/orders/progress.ts';
import type { OrderStatus } from '../core/orders/types.ts';
import { type DialectName, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import { catalogueSeed } from '../core/catalogue/seed/catalogue-seed.ts';
import { loadConfig } from '../server/config.ts';

const DAY_MS = 86_400_000;
/** Just inside the two-year retention period, so the daily purge does not eat the oldest day. */
const SPAN_MS = 728 * DAY_MS;

const FIRST =
  `james mary john patricia robert jennifer michael linda william elizabeth david barbara richard susan joseph jessica thomas sarah
charles karen christopher lisa daniel nancy matthew betty anthony margaret mark sandra donald ashley steven kimberly paul emily andrew donna
joshua michelle kenneth carol kevin amanda brian dorothy george melissa timothy deborah ronald stephanie edward rebecca jason sharon jeffrey
laura ryan cynthia jacob kathleen gary amy nicholas angela eric shirley jonathan anna stephen brenda larry pamela justin emma scott nicole
brandon helen benjamin samantha samuel katherine gregory christine alexander debra frank rachel patrick carolyn raymond janet jack maria
dennis olivia jerry heather tyler diane aaron julie jose joyce adam victoria nathan kelly henry christina zachary lauren douglas joan peter
evelyn kyle judith noah megan ethan andrea jeremy cheryl walter hannah christian jacqueline keith martha roger gloria terry teresa austin
ann sean sara gerald madison carl frances harold kathryn dylan janice arthur jean lawrence abigail jordan alice jesse judy bryan sophia
billy grace bruce denise gabriel amber joe doris logan marilyn albert danielle willie beverly alan isabella eugene theresa russell diana
vincent natalie elijah brittany randy charlotte aarav priya rahul ananya arjun diya rohan isha vikram kavya omar fatima ali aisha yusuf
layla mateo valentina santiago camila lucas sofia liam mia leo chloe hugo ines yuki hana kenji mei wei jun minh linh`.split(
    /\s+/,
  );
const LAST =
  `smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson thomas taylor
moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young allen king wright scott torres nguyen
hill flores green adams nelson baker hall rivera campbell mitchell carter roberts gomez phillips evans turner diaz parker cruz edwards
collins reyes stewart morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson bailey reed kelly howard ramos kim cox ward
richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price alvarez castillo sanders patel myers long ross foster
jimenez powell jenkins perry russell sullivan bell coleman butler henderson barnes gonzales fisher vasquez simmons romero jordan patterson
alexander hamilton graham reynolds griffin wallace moreno west cole hayes bryant herrera gibson ellis tran medina aguilar stevens murray
ford castro marshall owens harrison fernandez mcdonald woods washington kennedy wells vargas henry chen freeman webb tucker guzman burns
crawford olson simpson porter hunter gordon mendez silva shaw snyder mason dixon munoz hunt hicks holmes palmer wagner black robertson
sharma verma gupta singh kumar khan ahmed hassan rossi ferrari muller schmidt schneider dubois moreau tanaka suzuki wang zhang liu`.split(
    /\s+/,
  );
const DOMAINS: [string, number][] = [
  ['gmail.com', 46],
  ['yahoo.com', 10],
  ['hotmail.com', 8],
  ['outlook.com', 9],
  ['icloud.com', 8],
  ['proton.me', 3],
  ['aol.com', 2],
  ['live.com', 3],
  ['gmx.de', 2],
  ['mail.ru', 1],
  ['yahoo.co.in', 2],
  ['rediffmail.com', 1],
  ['studio-lumen.co', 1],
  ['brightpath.agency', 1],
  ['northwind.io', 1],
  ['kitchenstories.net', 1],
];
const HANDLE_SUFFIXES = [
  '',
  '',
  '',
  '_official',
  '.art',
  '_fit',
  '.music',
  '_travels',
  '.studio',
  '_eats',
  '.photo',
  '_gaming',
  '.beauty',
  '_vlogs',
  '.shop',
  '_daily',
];
const SERVICE_WEIGHTS: Record<string, number> = {
  'instagram-followers': 28,
  'instagram-likes': 16,
  'instagram-views': 7,
  'instagram-reels-views': 8,
  'instagram-custom-comments': 3,
  'youtube-views': 10,
  'youtube-subscribers': 6,
  'youtube-likes': 4,
  'tiktok-followers': 9,
  'tiktok-likes': 5,
  'tiktok-views': 5,
};
const PLAN_WEIGHTS: Record<string, number> = { Standard: 55, Popular: 32, Exclusive: 13 };
const CARD_ERRORS = [
  'Payment failed: the card was declined by the issuing bank',
  'Payment failed: insufficient funds',
  '3-D Secure authentication failed',
  'Payment failed: card expired',
  'Payment was cancelled by the customer',
];
const SUPPLIER_REFUSALS = [
  'Incorrect link',
  'Link is private or does not exist',
  'Quantity less than minimal',
  'Service is temporarily disabled',
  'Active order with this link exists',
];
const RETRY_ERRORS = ['Not enough funds on balance', 'Too many requests, try again later'];
const REVIEW_REASONS = [
  'The supplier did not answer clearly (The supplier panel did not answer in time); the order may or may not exist there.',
  'The store stopped between sending this order to the supplier and recording the answer. Check the supplier panel before applying the service again.',
  'Target could not be verified: Instagram did not answer in time',
];

/** `items[index]` for an index the caller computed to be in range; anything else is a bug here. */
function itemAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`Index ${index} is outside a list of ${items.length}`);
  return item;
}

/** A small, fast, seedable PRNG (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => itemAt(items, Math.floor(next() * items.length)),
    chance: (p: number) => next() < p,
    weighted<T>(items: readonly (readonly [T, number])[]): T {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [item, w] of items) {
        r -= w;
        if (r < 0) return item;
      }
      // Floating-point rounding can leave r at or just above 0 after the last weight.
      return itemAt(items, items.length - 1)[0];
    },
  };
}
type Rng = ReturnType<typeof prng>;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const YT = `${BASE62}-_`;
const randomText = (rng: Rng, alphabet: string, length: number) => {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
};
const digits = (rng: Rng, length: number) => {
  let out = String(rng.int(1, 9));
  for (let i = 1; i < length; i += 1) out += String(rng.int(0, 9));
  return out;
};

interface Tier {
  serviceSlug: string;
  serviceName: string;
  targetKind: string;
  planType: string;
  qty: number;
  priceE4: number;
  supplierServiceId: string;
}
interface Customer {
  email: string;
  handle: string;
}

async function loadTiers(db: Kysely<Database>): Promise<{ tier: Tier; weight: number }[]> {
  const rows = await db
    .selectFrom('price_tiers')
    .innerJoin('plans', 'plans.id', 'price_tiers.plan_id')
    .innerJoin('services', 'services.id', 'plans.service_id')
    .select([
      'services.slug',
      'services.name',
      'services.target_kind',
      'plans.type',
      'price_tiers.qty',
      'price_tiers.price_e4',
      'price_tiers.supplier_service_id',
      'price_tiers.position',
    ])
    .execute();
  return rows.map((row) => ({
    tier: {
      serviceSlug: row.slug,
      serviceName: row.name,
      targetKind: row.target_kind,
      planType: row.type,
      qty: row.qty,
      priceE4: row.price_e4,
      supplierServiceId: row.supplier_service_id,
    },
    // Small packages sell most: each step up the tier list halves the weight, roughly.
    weight: (SERVICE_WEIGHTS[row.slug] ?? 3) * (PLAN_WEIGHTS[row.type] ?? 10) * 0.62 ** row.position,
  }));
}

function makeCustomer(rng: Rng): Customer {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const year = rng.int(70, 99 + 9) % 100;
  const local = rng.weighted<string>([
    [`${first}.${last}`, 20],
    [`${first}.${last}${rng.int(1, 99)}`, 25],
    [`${first}${last}`, 12],
    [`${first[0]}${last}${String(year).padStart(2, '0')}`, 12],
    [`${first}_${last}`, 8],
    [`${first}${rng.int(100, 9999)}`, 13],
    [`${last}.${first}`, 5],
    [`${first}.${last[0]}`, 5],
  ]);
  const handleBase = rng.weighted<string>([
    [`${first}${last}`, 25],
    [`${first}.${last}`, 20],
    [`${first}_${last}`, 15],
    [`the.${first}.${last}`, 5],
    [`${first}${rng.int(1, 999)}`, 20],
    [`${last}.${first}`, 5],
    [`${first}_${last[0]}`, 10],
  ]);
  return {
    email: `${local}@${rng.weighted(DOMAINS)}`,
    handle: `${handleBase}${rng.pick(HANDLE_SUFFIXES)}`.slice(0, 30),
  };
}

function targetFor(rng: Rng, kind: string, handle: string): string {
  switch (kind) {
    case 'instagram_username':
    case 'tiktok_username':
      return handle;
    case 'instagram_post_url':
      return `https://www.instagram.com/${rng.chance(0.3) ? 'reel' : 'p'}/${randomText(rng, YT, 11)}/`;
    case 'youtube_video_url':
      return `https://www.youtube.com/watch?v=${randomText(rng, YT, 11)}`;
    case 'tiktok_post_url':
      return `https://www.tiktok.com/@${handle.replace(/\.$/, '')}/video/${digits(rng, 19)}`;
    default:
      return handle;
  }
}

const COLUMNS = [
  'provider',
  'provider_order_id',
  'client_order_id',
  'email',
  'service_slug',
  'service_name',
  'plan_type',
  'quantity',
  'target',
  'target_kind',
  'comment',
  'supplier_service_id',
  'price_e4',
  'amount_e4',
  'currency',
  'payment_status',
  'order_status',
  'payment_id',
  'needs_review',
  'review_reason',
  'error_message',
  'created_at',
  'updated_at',
  'paid_at',
  'supplier_order_id',
  'fulfilment_state',
  'fulfilment_attempts',
  'start_count',
  'remains',
  'supplier_charge_e4',
  'status_synced_at',
  'refunded_e4',
  'search_text',
] as const;
type Value = string | number | null;
/** Column types for PostgreSQL's unnest (text otherwise). */
const PG_TYPES: Partial<Record<(typeof COLUMNS)[number], string>> = {
  quantity: 'integer',
  price_e4: 'bigint',
  amount_e4: 'bigint',
  needs_review: 'integer',
  fulfilment_attempts: 'integer',
  start_count: 'integer',
  remains: 'integer',
  supplier_charge_e4: 'bigint',
  refunded_e4: 'bigint',
};

export interface SeedOptions {
  /** PRNG seed; default random, so repeated runs add new orders rather than colliding. */
  seed?: number;
  /** Called after each transaction with the rows inserted so far. */
  onProgress?: (inserted: number) => void;
  /** The SQLite file behind `db`: rows then go in through a second connection with a cached statement. */
  sqliteFile?: string | undefined;
  now?: Date;
}

export interface SeedResult {
  requested: number;
  inserted: number;
  ms: number;
}

/** Inserts `count` generated orders; returns how many went in (conflicting rows are skipped). */
export async function seedOrders(
  db: Kysely<Database>,
  dialect: DialectName,
  count: number,
  options: SeedOptions = {},
): Promise<SeedResult> {
  const started = performance.now();
  const catalogue = createCatalogue(db);
  if (await catalogue.isEmpty()) await catalogue.replaceCatalogue(catalogueSeed);
  const tiers = await loadTiers(db);
  if (tiers.length === 0) throw new Error('The catalogue has no price tiers');
  const tierChoices = tiers.map(({ tier, weight }) => [tier, weight] as const);

  const rng = prng(options.seed ?? randomBytes(4).readUInt32LE());
  const customers: Customer[] = Array.from({ length: Math.max(50, Math.ceil(count / 4)) }, () => makeCustomer(rng));
  // Favourite customers buy again and again: a skewed pick.
  const pickCustomer = () => itemAt(customers, Math.floor(customers.length * rng.next() ** 1.6));
  const usedClientIds = new Set<string>();
  const nowMs = (options.now ?? new Date()).getTime();
  const startMs = nowMs - SPAN_MS;
  const step = SPAN_MS / count;
  const supplierBase = 10_000_000 + rng.int(0, 80_000_000);

  function generate(i: number): Value[] {
    // Oldest first; ids grow with time. A little jitter keeps timestamps irregular but ordered.
    const createdMs = Math.floor(startMs + i * step + rng.next() * step * 0.9);
    const age = nowMs - createdMs;
    const created = new Date(createdMs).toISOString();
    const tier = rng.weighted(tierChoices);
    const customer = pickCustomer();
    let clientId = '';
    do clientId = String(rng.int(0, 999_999)).padStart(6, '0');
    while (usedClientIds.has(`${customer.email}|${clientId}`));
    usedClientIds.add(`${customer.email}|${clientId}`);
    const amountE4 = chargeAmountE4(tier.priceE4);
    const comment = tier.serviceSlug.includes('comments')
      ? ['Love this! 🔥', 'Amazing shot', 'So inspiring', 'Great content 👏', 'Wow!'].slice(0, rng.int(2, 5)).join('\n')
      : null;

    const row = {
      payment_status: 'paid',
      order_status: 'Pending' as OrderStatus,
      payment_id: null as string | null,
      needs_review: 0,
      review_reason: null as string | null,
      error_message: null as string | null,
      updated_at: created,
      paid_at: null as string | null,
      supplier_order_id: null as string | null,
      fulfilment_state: 'none',
      fulfilment_attempts: 0,
      start_count: null as number | null,
      remains: null as number | null,
      supplier_charge_e4: null as number | null,
      status_synced_at: null as string | null,
      refunded_e4: 0,
    };

    const unpaid = rng.next();
    if (unpaid < 0.022) {
      row.payment_status = 'fail';
      row.error_message = rng.pick(CARD_ERRORS);
      row.updated_at = new Date(createdMs + rng.int(30, 600) * 1000).toISOString();
    } else if (unpaid < 0.05 || age < 90_000 * rng.next()) {
      // Abandoned checkouts are expired by the reconciler after a day.
      row.payment_status = age > DAY_MS ? 'expired' : 'created';
      if (age > DAY_MS) row.updated_at = new Date(createdMs + DAY_MS + rng.int(60, 3600) * 1000).toISOString();
    } else {
      const paidMs = createdMs + rng.int(40, 300) * 1000;
      row.payment_id = `pay_${randomText(rng, BASE62, 14)}`;
      row.paid_at = new Date(Math.min(paidMs, nowMs)).toISOString();
      const submittedMs = Math.min(paidMs + rng.int(2, 60) * 1000, nowMs);
      const r = rng.next();
      let status: OrderStatus;
      let problem: 'failed' | 'retry' | 'review' | null = null;
      if (age < 10 * 60_000) status = r < 0.5 ? 'Pending' : 'Processing';
      else if (age < 6 * 3_600_000) status = r < 0.4 ? 'Processing' : 'In Progress';
      else if (age < 3 * DAY_MS)
        status = r < 0.5 ? 'In Progress' : r < 0.95 ? 'Completed' : r < 0.98 ? 'Partial' : 'Canceled';
      else if (r < 0.003) [status, problem] = ['Pending', 'failed'];
      else if (r < 0.004) [status, problem] = ['Pending', 'retry'];
      else if (r < 0.008) [status, problem] = ['Pending', 'review'];
      else if (r < 0.013) status = 'In Progress';
      else if (r < 0.015) status = 'Processing';
      else if (r < 0.05) status = 'Partial';
      else if (r < 0.07) status = 'Canceled';
      else status = 'Completed';
      row.order_status = status;

      if (problem === 'failed' || problem === 'retry') {
        row.fulfilment_state = problem;
        row.fulfilment_attempts = problem === 'retry' ? rng.int(1, 4) : 1;
        row.error_message = rng.pick(problem === 'failed' ? SUPPLIER_REFUSALS : RETRY_ERRORS);
        row.updated_at = new Date(submittedMs).toISOString();
      } else if (problem === 'review') {
        row.fulfilment_state = 'needs_review';
        row.fulfilment_attempts = 1;
        row.needs_review = 1;
        row.review_reason = rng.pick(REVIEW_REASONS);
        row.updated_at = new Date(submittedMs).toISOString();
      } else if (status === 'Pending') {
        row.updated_at = row.paid_at;
      } else {
        row.fulfilment_state = 'submitted';
        row.fulfilment_attempts = 1;
        row.supplier_order_id = String(supplierBase + i);
        row.supplier_charge_e4 = Math.max(1, Math.round(tier.priceE4 / 3));
        const startCount = rng.int(0, 50_000);
        row.start_count = status === 'Processing' ? null : startCount;
        const finishedMs = Math.min(submittedMs + rng.int(1, 72) * 3_600_000, nowMs);
        const synced = new Date(status === 'Processing' ? submittedMs : finishedMs).toISOString();
        row.status_synced_at = synced;
        row.updated_at = synced;
        if (status === 'Completed') row.remains = 0;
        else if (status === 'Processing') row.remains = null;
        else if (status === 'In Progress') row.remains = rng.int(1, tier.qty);
        else if (status === 'Partial') row.remains = Math.max(1, Math.floor(tier.qty * (0.1 + rng.next() * 0.5)));
        else row.remains = tier.qty;
        if (status === 'Partial' || status === 'Canceled') {
          row.refunded_e4 = refundDueE4({ amount_e4: amountE4, quantity: tier.qty, refunded_e4: 0 }, row.remains);
          if (status === 'Canceled') row.supplier_charge_e4 = 0;
        }
        // A customer who paid twice: kept, flagged for a refund of the second payment.
        if (rng.chance(0.0008)) {
          row.needs_review = 1;
          row.review_reason = `A second payment pay_${randomText(rng, BASE62, 14)} was received for this order`;
        }
      }
    }

    const providerOrderId = `order_${randomText(rng, BASE62, 14)}`;
    const target = targetFor(rng, tier.targetKind, customer.handle);
    return [
      'razorpay',
      providerOrderId,
      clientId,
      customer.email,
      tier.serviceSlug,
      tier.serviceName,
      tier.planType,
      tier.qty,
      target,
      tier.targetKind,
      comment,
      tier.supplierServiceId,
      tier.priceE4,
      amountE4,
      'USD',
      row.payment_status,
      row.order_status,
      row.payment_id,
      row.needs_review,
      row.review_reason,
      row.error_message,
      created,
      row.updated_at,
      row.paid_at,
      row.supplier_order_id,
      row.fulfilment_state,
      row.fulfilment_attempts,
      row.start_count,
      row.remains,
      row.supplier_charge_e4,
      row.status_synced_at,
      row.refunded_e4,
      // What the database's trigger would compute (it corrects any difference): SQLite then skips
      // a second write per row.
      `${providerOrderId}\n${customer.email}\n${target}\n${tier.serviceName}`.toLowerCase(),
    ];
  }

  let inserted = 0;
  const progress = (rows: number) => {
    inserted += rows;
    options.onProgress?.(inserted);
  };
  if (dialect === 'sqlite' && options.sqliteFile) insertSqlite(options.sqliteFile, count, generate, progress);
  else if (dialect === 'postgres') await insertPostgres(db, count, generate, progress);
  else await insertPortable(db, count, generate, progress);
  // Fresh statistics (the planner sizes keyword searches from them) and, on PostgreSQL, a visibility map.
  if (dialect === 'postgres') await db.executeQuery(CompiledQuery.raw('vacuum (analyze) orders'));
  else await db.executeQuery(CompiledQuery.raw('analyze'));
  return { requested: count, inserted, ms: performance.now() - started };
}

/** Rows per transaction: each commit flushes the FTS index's in-memory segment once. */
const ROWS_PER_TRANSACTION = 50_000;
type Generate = (i: number) => Value[];

/**
 * SQLite through its own connection: one prepared 100-row statement reused for every batch
 * (the Kysely driver prepares every query anew, which for 3,200-parameter statements costs
 * more than running them) and a larger page cache for the random-key unique indexes.
 */
function insertSqlite(file: string, count: number, generate: Generate, progress: (rows: number) => void) {
  const sqlite = new SQLite(file);
  try {
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('cache_size = -262144');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('wal_autocheckpoint = 50000');
    const rowsPerStatement = 100;
    const text = (rows: number) =>
      `insert into orders (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(',')})`).join(',')} on conflict do nothing`;
    const full = sqlite.prepare(text(rowsPerStatement));
    let next = 0;
    while (next < count) {
      const end = Math.min(count, next + ROWS_PER_TRANSACTION);
      const changes = sqlite.transaction(() => {
        let changed = 0;
        while (next < end) {
          const rows = Math.min(rowsPerStatement, end - next);
          const params: Value[] = [];
          for (let r = 0; r < rows; r += 1) params.push(...generate(next + r));
          next += rows;
          changed += (rows === rowsPerStatement ? full : sqlite.prepare(text(rows))).run(params).changes;
        }
        return changed;
      })();
      progress(changes);
    }
  } finally {
    sqlite.close();
  }
}

/**
 * PostgreSQL: 5,000 rows per INSERT … SELECT FROM unnest(one array per column), on one
 * connection. A bulk seed (BULK_ROWS or more) runs as ONE transaction that drops the orders
 * table's GIN (trigram) indexes first and rebuilds them at the end from their own definitions:
 * building a trigram index over a million rows takes a fraction of maintaining it row by row.
 * The transaction holds the table's exclusive lock until it commits (readers wait: this is a
 * tool for development and benchmark databases); if it fails, nothing of it remains.
 */
async function insertPostgres(
  db: Kysely<Database>,
  count: number,
  generate: Generate,
  progress: (rows: number) => void,
) {
  const rowsPerStatement = 5000;
  const arrays = COLUMNS.map((column, i) => `$${i + 1}::${PG_TYPES[column] ?? 'text'}[]`).join(', ');
  const text = `insert into orders (${COLUMNS.join(',')}) select * from unnest(${arrays}) on conflict do nothing`;
  const insertRange = async (trx: Kysely<Database>, from: number, to: number) => {
    let changed = 0;
    for (let next = from; next < to;) {
      const rows = Math.min(rowsPerStatement, to - next);
      const columns: Value[][] = COLUMNS.map(() => new Array<Value>(rows));
      for (let r = 0; r < rows; r += 1) {
        const values = generate(next + r);
        for (let c = 0; c < values.length; c += 1) itemAt(columns, c)[r] = itemAt(values, c);
      }
      next += rows;
      changed += Number((await trx.executeQuery(CompiledQuery.raw(text, columns))).numAffectedRows ?? 0);
    }
    return changed;
  };

  if (count < BULK_ROWS) {
    for (let next = 0; next < count; next += ROWS_PER_TRANSACTION) {
      const end = Math.min(count, next + ROWS_PER_TRANSACTION);
      progress(await db.transaction().execute((trx) => insertRange(trx, next, end)));
    }
    return;
  }

  await db.transaction().execute(async (trx) => {
    const run = (statement: string) => trx.executeQuery(CompiledQuery.raw(statement));
    const gins = await sql<{ name: string; definition: string }>`
      select c.relname as name, pg_get_indexdef(c.oid) as definition
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      where i.indrelid = 'orders'::regclass and am.amname = 'gin'`.execute(trx);
    const statistics = await sql<{ name: string; attnum: number; target: number }>`
      select c.relname as name, a.attnum, a.attstattarget as target
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      join pg_attribute a on a.attrelid = c.oid
      where i.indrelid = 'orders'::regclass and am.amname = 'gin' and a.attstattarget > 0`.execute(trx);
    for (const gin of gins.rows) await run(`drop index "${gin.name}"`);
    for (let next = 0; next < count; next += ROWS_PER_TRANSACTION) {
      progress(await insertRange(trx, next, Math.min(count, next + ROWS_PER_TRANSACTION)));
    }
    await run("set local maintenance_work_mem = '512MB'");
    for (const gin of gins.rows) await run(gin.definition);
    for (const s of statistics.rows)
      await run(`alter index "${s.name}" alter column ${s.attnum} set statistics ${s.target}`);
  });
}

/** From this many rows on, PostgreSQL seeds rebuild the trigram index instead of maintaining it. */
const BULK_ROWS = 50_000;

/** Any Kysely database (e.g. an in-memory SQLite): 500-row statements. */
async function insertPortable(
  db: Kysely<Database>,
  count: number,
  generate: Generate,
  progress: (rows: number) => void,
) {
  const rowsPerStatement = 500;
  const text = (rows: number) =>
    `insert into orders (${COLUMNS.join(',')}) values ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(',')})`).join(',')} on conflict do nothing`;
  let next = 0;
  while (next < count) {
    const end = Math.min(count, next + ROWS_PER_TRANSACTION);
    let changed = 0;
    await db.transaction().execute(async (trx) => {
      while (next < end) {
        const rows = Math.min(rowsPerStatement, end - next);
        const params: Value[] = [];
        for (let r = 0; r < rows; r += 1) params.push(...generate(next + r));
        next += rows;
        changed += Number((await trx.executeQuery(CompiledQuery.raw(text(rows), params))).numAffectedRows ?? 0);
      }
    });
    progress(changed);
  }
}

async function main() {
  const arg = process.argv[2] ?? '1000';
  const count = Number(arg.replaceAll('_', ''));
  if (!Number.isInteger(count) || count <= 0) {
    console.error(`Usage: npm run seed:orders -- <count>   (got "${arg}")`);
    process.exit(2);
  }
  const config = loadConfig();
  const handle = openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(handle.db);
    const where = handle.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : config.sqlitePath;
    console.log(`Seeding ${count.toLocaleString('en-US')} orders into ${where}…`);
    let lastReport = 0;
    const result = await seedOrders(handle.db, handle.dialect, count, {
      sqliteFile: handle.dialect === 'sqlite' ? config.sqlitePath : undefined,
      onProgress(inserted) {
        if (inserted - lastReport >= 100_000 || inserted === count) {
          lastReport = inserted;
          process.stdout.write(`  ${inserted.toLocaleString('en-US')} rows\n`);
        }
      },
    });
    console.log(`Inserted ${result.inserted.toLocaleString('en-US')} orders in ${(result.ms / 1000).toFixed(1)} s.`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
