/** Kysely table types. Column names are snake_case in SQL; amounts are integers (see core/money). */
import type { ColumnType, Generated } from 'kysely';
import type {
  FulfilmentState,
  JobStatus,
  OrderEventKind,
  OrderPaymentRole,
  OrderStatus,
  PaymentStatus,
  PendingAction,
  RefundOrigin,
  RefundStatus,
  ServiceKind,
  SubscriptionEndReason,
} from './column-values.ts';

/** A nullable column an insert may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface ServiceGroupsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  image: string;
  position: number;
}

export interface ServicesTable {
  id: Generated<number>;
  group_id: number;
  slug: string;
  name: string;
  title_html: string;
  description: string;
  image: string;
  target_kind: string;
  /** 0 or 1: SQLite has no boolean type, so both dialects store an integer. */
  comment_required: number;
  position: number;
  /** 'draft' | 'published' (migration 020): drafts are absent from every public read. */
  status: Generated<string>;
  /** Bumped by every save; the editor's compare-and-set names it (decision 044). */
  revision: Generated<number>;
  /** When first published; from then on the slug is fixed. */
  published_at: string | null;
  /** What the service sells (migration 024, decision 057). */
  kind: Generated<ServiceKind>;
  /** A subscription kind's period in days (null for packages). */
  period_days: number | null;
  /** Automatic likes: how many new posts one period covers. */
  posts_per_period: number | null;
  /** Automatic likes: minutes the panel waits after a post before it starts. */
  post_delay_minutes: number | null;
}

export interface PlansTable {
  id: Generated<number>;
  service_id: number;
  type: string;
  title: string;
  icon: string;
  currency: string;
  /** JSON array of option names. */
  options_json: string;
  position: number;
}

export interface PriceTiersTable {
  id: Generated<number>;
  plan_id: number;
  qty: number;
  text: string;
  price_e4: number;
  discount_percent: number;
  supplier_service_id: string;
  position: number;
  /** The supplier panel the tier's service is bought from (migration 019); 1 = the environment panel. */
  supplier_panel_id: Generated<number>;
}

/** One row (id 1): the catalogue's content version, bumped by every catalogue write (migration 020). */
export interface CatalogueContentTable {
  id: number;
  version: number;
}

export interface Database {
  catalogue_content: CatalogueContentTable;
  service_groups: ServiceGroupsTable;
  services: ServicesTable;
  plans: PlansTable;
  price_tiers: PriceTiersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  webhook_events: WebhookEventsTable;
  jobs: JobsTable;
  settings: SettingsTable;
  order_notes: OrderNotesTable;
  sandbox_payments: SandboxPaymentsTable;
  one_time_codes: OneTimeCodesTable;
  refunds: RefundsTable;
  payment_attempts: PaymentAttemptsTable;
  order_payments: OrderPaymentsTable;
  payment_disputes: PaymentDisputesTable;
  simulated_panel_orders: SimulatedPanelOrdersTable;
  admins: AdminsTable;
  admin_tokens: AdminTokensTable;
  admin_login_failures: AdminLoginFailuresTable;
  admin_second_factors: AdminSecondFactorsTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  admin_invitations: AdminInvitationsTable;
  admin_audit: AdminAuditTable;
  supplier_orders: SupplierOrdersTable;
  refills: RefillsTable;
  simulated_panel_refills: SimulatedPanelRefillsTable;
  blog_categories: BlogCategoriesTable;
  blog_posts: BlogPostsTable;
  blog_content: BlogContentTable;
  contact_messages: ContactMessagesTable;
  contact_replies: ContactRepliesTable;
  review_invitations: ReviewInvitationsTable;
  reviews: ReviewsTable;
  reviews_content: ReviewsContentTable;
  order_daily_totals: OrderDailyTotalsTable;
  service_delivery_daily: ServiceDeliveryDailyTable;
  supplier_panels: SupplierPanelsTable;
  supplier_services: SupplierServicesTable;
  subscriptions: SubscriptionsTable;
  supplier_lanes: SupplierLanesTable;
}

export interface OrdersTable {
  id: Generated<number>;
  /** The provider of payment_method (core/payments/provider.ts ProviderId). */
  provider: string;
  /**
   * The order's own reference, `order_` + its public id (the confirmation page's id). Orders
   * created before migration 022 used Razorpay's order id here, hence the name; the providers'
   * references for each payment attempt are in payment_attempts (decision 055).
   */
  provider_order_id: string;
  client_order_id: string;
  email: string;
  service_slug: string;
  service_name: string;
  plan_type: string;
  quantity: number;
  target: string;
  target_kind: string;
  comment: string | null;
  supplier_service_id: string;
  price_e4: number;
  /** The list price when a sale reduced price_e4 at creation, else NULL (migration 017, decision 038). */
  list_price_e4: ColumnType<number | null, number | null | undefined, number | null>;
  amount_e4: number;
  currency: string;
  payment_status: PaymentStatus;
  order_status: OrderStatus;
  payment_id: string | null;
  needs_review: Generated<number>;
  review_reason: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** The latest supplier order's id (all of them: supplier_orders). */
  supplier_order_id: string | null;
  /** Of the latest submission to the supplier. */
  fulfilment_state: Generated<FulfilmentState>;
  fulfilment_attempts: Generated<number>;
  /** As last reported by the supplier for the latest supplier order. */
  start_count: number | null;
  /** What is still undelivered, over all supplier orders of the order. */
  remains: number | null;
  supplier_charge_e4: number | null;
  status_synced_at: string | null;
  refunded_e4: Generated<number>;
  /** An admin action queued and not finished yet (decision 012). */
  pending_action: Generated<PendingAction | null>;
  /** Admin actions asked so far: the attempt number in their jobs' dedupe keys. */
  action_attempts: Generated<number>;
  /**
   * lower(provider order id, e-mail, target, service name), newline-separated: the admin
   * console's keyword search. Kept by database triggers (migration 007); writers leave it out.
   */
  search_text: Generated<string>;
  /** When the payment reconciler last asked the provider about this unpaid order (migration 009); null: never. */
  last_checked_at: Generated<string | null>;
  /** When the order first became Completed; set by triggers (migration 018), writers leave it out. */
  completed_at: Generated<string | null>;
  /** When money for the order first went back; set by triggers (migration 018). */
  refunded_at: Generated<string | null>;
  /** The panel the order is fulfilled on, copied from its tier at creation (migration 019). */
  supplier_panel_id: Generated<number>;
  /** The method the order is (to be) paid with; once paid, the one that took the money (migration 022). */
  payment_method: Generated<string>;
  /** What that method changed the price by (negative: a discount), included in amount_e4. */
  adjustment_e4: Generated<number>;
  /** The service's kind when the order was made (migration 024); subscription kinds have a subscriptions row. */
  kind: Generated<ServiceKind>;
  /** The link the supplier delivers to, with the kind of delivery (core/subscriptions/lanes.ts); null: no lane. */
  lane_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * An order of a subscription kind (migration 024, decision 057): the terms it was bought with,
 * and what the panel reported while it ran.
 */
export interface SubscriptionsTable {
  order_id: number;
  kind: Exclude<ServiceKind, 'package'>;
  /** Likes per post (automatic likes) or followers per day (daily followers). */
  per_unit: number;
  /** Automatic likes: the most new posts the period covers. */
  posts: Optional<number>;
  /** Automatic likes: minutes after a post before the likes start. */
  delay_minutes: Optional<number>;
  /** Daily followers: the drip-feed's runs (one a day) and minutes between them. */
  runs: Optional<number>;
  interval_minutes: Optional<number>;
  period_days: number;
  /** Set when it reaches the panel; ends_at is starts_at + period_days (the panel's expiry). */
  starts_at: Optional<string>;
  ends_at: Optional<string>;
  /** As the panel last reported: posts served (automatic likes), runs done (daily followers). */
  posts_served: Optional<number>;
  runs_done: Optional<number>;
  /** The panel's own status word, as it said it (its shape is not standardised). */
  panel_status: Optional<string>;
  ended_at: Optional<string>;
  end_reason: Optional<SubscriptionEndReason>;
  /** 1: e-mail a renewal link before the end; the customer can turn it off. */
  reminders: Generated<number>;
  reminder_sent_at: Optional<string>;
  /** sha256 of the single-use renewal link's token. */
  renewal_token_hash: Optional<string>;
  /** The order this one renews, and the order that renewed this one. */
  renewal_of_order_id: Optional<number>;
  renewed_by_order_id: Optional<number>;
}

/** The order that holds each link at the supplier (migration 024): one row per busy lane. */
export interface SupplierLanesTable {
  lane_key: string;
  order_id: number;
  taken_at: string;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  at: string;
  kind: OrderEventKind;
  detail_json: Generated<string>;
  /** Set on an entry written once per cause (unique): see `recordOrderEventOnce`. */
  event_key: Generated<string | null>;
}

export interface WebhookEventsTable {
  provider: string;
  event_id: string;
  received_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload_json: string;
  dedupe_key: string | null;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** An admin's internal note on an order (migration 033): console only, never shown to the customer. */
export interface OrderNotesTable {
  order_id: number;
  /** Plain text, trimmed; shown as text, never as HTML. */
  body: string;
  updated_at: string;
  /** The admin who wrote it last (admins.id). */
  updated_by: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SandboxPaymentsTable {
  id: string;
  provider_order_id: string;
  status: string;
  amount_cents: number;
  currency: string;
  error_description: string | null;
  created_at: string;
}

/** Orders of the built-in simulated supplier panel (core/fulfilment/simulated-panel.ts). */
export interface SimulatedPanelOrdersTable {
  id: Generated<number>;
  service: string;
  link: string;
  quantity: number;
  comments: string | null;
  /** As panels send it: Pending, In progress, Completed, Partial, Canceled. */
  status: string;
  start_count: number;
  remains: number;
  /** What will remain when delivery ends, fixed at creation: 0 for 'complete'. */
  final_remains: number;
  charge_e4: number;
  /** complete | partial | cancel, decided at creation. */
  outcome: string;
  /** When the order reached its final status. */
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * 'one-off', 'drip-feed' or 'subscription' (migration 025). A subscription keeps its username in
   * `link` and its max per post in `quantity`; a drip-feed's `quantity` is per run.
   */
  kind: Generated<string>;
  /** Drip-feed: runs asked for, minutes between them, runs delivered so far. */
  runs: number | null;
  run_interval_minutes: number | null;
  runs_done: number | null;
  /** Subscription: the account, units per new post, the most posts, existing posts also served. */
  username: string | null;
  min_per_post: number | null;
  max_per_post: number | null;
  posts: number | null;
  old_posts: number | null;
  /** Subscription: minutes after a new post before delivery starts. */
  delay_minutes: number | null;
  /** Subscription: the moment its expiry day is over (ISO); null: no expiry. */
  expires_at: string | null;
  /** Subscription: posts served so far. */
  posts_served: number | null;
}

export interface OneTimeCodesTable {
  id: Generated<number>;
  /** What the code proves: 'order-history', 'admin-login'. */
  purpose: string;
  /** The e-mail, trimmed and lowercased. */
  subject: string;
  /** HMAC-SHA256(pepper, `${purpose}:${subject}:${code}`) as hex; never the code itself. */
  code_hash: string;
  expires_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  consumed_at: string | null;
  last_sent_at: string;
  sends_in_window: number;
  window_started_at: string;
  created_at: string;
}

/**
 * Money given back (migration 022): the automatic refund of undelivered remains, the owner's
 * refunds, a second payment's refund. Unique by idempotency key; each is tied to the payment it
 * returns, and capped by it (order_payments).
 */
export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  order_payment_id: number | null;
  idempotency_key: string;
  origin: RefundOrigin;
  status: RefundStatus;
  provider: string;
  provider_refund_id: string | null;
  amount_e4: number;
  /** Words for the owner and the customer (the owner's reason, or the status that made it due). */
  reason: string;
  /** The admin who asked for it; null for the automatic ones. */
  requested_by: string | null;
  /** Why the provider refused it (status `failed`). */
  failure: string | null;
  /** A crypto refund: the wallet address the customer gave. */
  payout_address: string | null;
  /** A crypto refund waiting for that address: the hash of the e-mailed single-use link's token. */
  address_token_hash: string | null;
  created_at: string;
  settled_at: string | null;
}

/** One try at paying an order with one method (migration 022). */
export interface PaymentAttemptsTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  method: string;
  /** The provider's name for this attempt: its webhooks and lookups use it. */
  reference: string;
  amount_e4: number;
  adjustment_e4: number;
  /** What the browser needs to pay this attempt (CheckoutInstructions), for a repeated submission. */
  checkout_json: string;
  created_at: string;
}

/** Money received for an order (migration 022). */
export interface OrderPaymentsTable {
  id: Generated<number>;
  order_id: number;
  attempt_id: number | null;
  provider: string;
  method: string;
  payment_id: string;
  /** applied: it paid the order; extra: a second payment for an order already paid. */
  role: OrderPaymentRole;
  amount_e4: number;
  currency: string;
  refunded_e4: Generated<number>;
  /** Refunds asked of the provider and not settled yet: they count against the cap. */
  refund_pending_e4: Generated<number>;
  created_at: string;
}

/** Chargebacks and disputes a provider reported (migration 022). */
export interface PaymentDisputesTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  dispute_id: string;
  amount_e4: number;
  currency: string;
  reason: string;
  created_at: string;
}

/** Admin accounts (core/auth/admins.ts). */
export interface AdminsTable {
  id: Generated<number>;
  /** Trimmed and lowercased. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (core/auth/passwords.ts). */
  password_hash: string;
  /** 0 or 1: set by the first one-time code entered after a login. */
  is_verified: Generated<number>;
  /** Failed logins in the current run; the run is forgotten 15 minutes after its last failure. */
  failed_logins: Generated<number>;
  last_failed_at: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  /** 'owner' or 'support' (migration 016, decision 041; core/auth/roles.ts). */
  role: Generated<string>;
  /** When the admin's latest token was issued (migration 016). */
  last_login_at: Generated<string | null>;
}

/** Open and accepted admin invitations; only the token's SHA-256 is kept (migration 016). */
export interface AdminInvitationsTable {
  id: Generated<number>;
  email: string;
  role: string;
  token_hash: string;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

/** One row per admin action that changes something (migration 016, core/admin/audit.ts). */
export interface AdminAuditTable {
  id: Generated<number>;
  created_at: string;
  admin_id: number | null;
  admin_email: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: number;
  /** JSON `{ before?, after? }` without secrets, or null. */
  summary: string | null;
}

/** Admin bearer tokens; only the token's SHA-256 is kept. */
export interface AdminTokensTable {
  id: Generated<number>;
  admin_id: number;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Failed admin logins per account and source address (migration 010, decision 016). */
export interface AdminLoginFailuresTable {
  id: Generated<number>;
  /** The e-mail tried, normalised (admin or not). */
  account: string;
  /** The client address. */
  source: string;
  failures: number;
  last_failed_at: string;
  locked_until: string | null;
}

/** An admin's second factor state (migration 010, decision 016). */
export interface AdminSecondFactorsTable {
  admin_id: number;
  /** AES-256-GCM ciphertext of the TOTP secret (core/auth/totp.ts); null: e-mailed codes. */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled_at: string | null;
  totp_last_step: number | null;
  challenge_until: string | null;
  /** Codes tried in the open challenge (migration 027). */
  challenge_guesses: Generated<number>;
  /** The start of the account's current fifteen-minute window of guesses, and how many it had. */
  guess_window_started: string | null;
  guess_window_count: Generated<number>;
  passed_source: string | null;
  passed_until: string | null;
  updated_at: string;
}

/** Single-use recovery codes, hashed (migration 010, decision 016). */
export interface AdminRecoveryCodesTable {
  id: Generated<number>;
  admin_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** Every supplier order of an order (migration 008, decision 012). */
export interface SupplierOrdersTable {
  id: Generated<number>;
  order_id: number;
  supplier_order_id: string;
  quantity: number;
  /** As last reported by the supplier, normalised; Processing until the first report. */
  status: OrderStatus;
  remains: number | null;
  start_count: number | null;
  charge_e4: number | null;
  /** 0 or 1: the supplier reported a final status; never synced again. */
  final: Generated<number>;
  cancel_requested_at: string | null;
  error_message: string | null;
  created_at: string;
  synced_at: string | null;
}

/** Refills asked of the supplier (migration 015, decision 040); one open (final = 0) per order. */
export interface RefillsTable {
  id: Generated<number>;
  order_id: number;
  supplier_order_id: string;
  supplier_refill_id: string | null;
  /** 'requesting' while the panel's `refill` call is in flight, then a RefillState. */
  state: string;
  raw_status: string | null;
  final: Generated<number>;
  requested_by: 'customer' | 'admin';
  admin_id: number | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  polled_at: string | null;
}

/** The simulated panel's refills (migration 015). */
export interface SimulatedPanelRefillsTable {
  id: Generated<number>;
  order_id: number;
  created_at: string;
}

/** Blog categories (migration 011); `name_key` is the name lowercased with accents folded. */
export interface BlogCategoriesTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  slug: string;
  created_at: string;
}

/** Blog posts (migration 011). `search_*` are folded copies for full-text search (core/blog). */
export interface BlogPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  short_desc: string;
  /** 0 or 1: 1 when the admin wrote the shortDesc, 0 when it is derived from the body. */
  short_desc_is_custom: number;
  description: string;
  category_id: number | null;
  image_url: string;
  image_width: number | null;
  image_height: number | null;
  search_title: string;
  search_body: string;
  created_at: string;
  updated_at: string;
  /** Null: a draft. Later than now: scheduled. The public sees a post only once this has passed. */
  published_at: string | null;
}

/** One row (id 1): the blog's content version and when the seed posts were written. */
export interface BlogContentTable {
  id: number;
  version: number;
  seeded_at: string | null;
}

/** Messages from the contact form (migration 012, decision 024). */
export interface ContactMessagesTable {
  id: Generated<number>;
  email: string;
  /** Set only when the order named belongs to `email`. */
  order_id: number | null;
  message: string;
  status: Generated<ContactMessageStatus>;
  created_at: string;
  handled_at: string | null;
  /** When an admin first opened it (migration 013); null: unread. */
  read_at: Generated<string | null>;
  /** The admin who marked it handled. */
  handled_by: Generated<number | null>;
  /** E-mail, linked order id and text, lowercased (core/contact/inbox.ts `contactSearchText`). */
  search_text: Generated<string>;
}

export type ContactMessageStatus = 'new' | 'handled';

/** Admins' replies to contact messages (migration 013, decision 026). */
export interface ContactRepliesTable {
  id: Generated<number>;
  message_id: number;
  body: string;
  admin_id: number | null;
  admin_email: string;
  created_at: string;
}

/** Review links sent with the completion e-mail (migration 014, decision 039): the token's SHA-256 only. */
export interface ReviewInvitationsTable {
  id: Generated<number>;
  order_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** Set once, by compare-and-set, when the review is submitted. */
  used_at: Generated<string | null>;
}

export type ReviewState = 'pending' | 'approved' | 'rejected';

/** Customers' reviews (migration 014, decision 039): plain text, escaped wherever shown. */
export interface ReviewsTable {
  id: Generated<number>;
  order_id: number;
  /** The order's service, copied for the service pages' aggregate rating. */
  service_slug: string;
  /** 1–5. */
  rating: number;
  body: string;
  display_name: string;
  state: Generated<ReviewState>;
  created_at: string;
  decided_at: Generated<string | null>;
  decided_by: Generated<number | null>;
}

/** One row: bumped by every moderation decision; page caches key on it. */
export interface ReviewsContentTable {
  id: number;
  version: number;
}

/**
 * Per UTC day and currency, kept exact by triggers on `orders` (migration 018): checkouts created
 * that day and how many of them were paid, payments and revenue by the day paid, refunds by the
 * day refunded. Read-only for the application (the owner's dashboard).
 */
export interface OrderDailyTotalsTable {
  day: string;
  currency: string;
  checkouts: number | string;
  converted: number | string;
  paid: number | string;
  revenue_e4: number | string;
  refunds: number | string;
  refunded_e4: number | string;
}

/** Per UTC day and service: orders completed and the seconds from payment to completion, summed (migration 018). */
export interface ServiceDeliveryDailyTable {
  day: string;
  service_slug: string;
  completed: number | string;
  delivery_seconds: number | string;
}

/** Supplier panels (migration 019, decision 045). Row 1 is the environment panel. */
export interface SupplierPanelsTable {
  id: Generated<number>;
  name: string;
  kind: 'environment' | 'stored';
  /** Null for the environment panel (SMM_PANEL_URL or the built-in simulated panel). */
  url: string | null;
  /** The API key sealed with SUPPLIER_KEY_ENCRYPTION_KEY; never leaves core/fulfilment. */
  key_sealed: string | null;
  /** From the panel's last `balance` reply. */
  currency: string | null;
  low_balance_threshold_e4: number | null;
  low_balance_alerted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A panel's imported `services` list (migration 019). */
export interface SupplierServicesTable {
  panel_id: number;
  service: string;
  name: string;
  type: string;
  category: string;
  rate_e4: number;
  min: number;
  max: number;
  refill: number;
  cancel: number;
  imported_at: string;
  /** Set when the last import no longer found the service on the panel. */
  vanished_at: string | null;
}
