/**
 * One service as the catalogue editor reads and saves it (decision 044), and the zod
 * schema that checks a save on the server. The admin form imports the same schema, so its
 * messages are the server's; public pages never load this module.
 */
import { z } from 'zod';
import {
  PERIOD_DAYS_MAX,
  PERIOD_DAYS_MIN,
  POSTS_PER_PERIOD_MAX,
  POST_DELAY_MINUTES,
  SERVICE_KINDS,
  type ServiceTerms,
} from '../subscriptions/terms.ts';
import { PLAN_TYPES, TARGET_KINDS } from './types.ts';
import { INTEGER_COLUMN_MAX, integerColumn } from '../integer-columns.ts';

export const SERVICE_STATUSES = ['draft', 'published'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

const SERVICE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PRICE_PATTERN = /^\d{1,12}(?:\.\d{1,4})?$/;

export const CATALOGUE_MESSAGES = {
  stale: 'Someone else changed this service since you opened it. Reload to see their changes (yours are not saved).',
  notFound: 'Service not found',
  groupNotFound: 'Group not found',
  slugTaken: 'Another service or group already uses this slug.',
  slugLocked:
    'The slug of a service that has been published cannot change: orders, reviews, links and the sitemap use it.',
  imageNotUploaded: 'Upload the image (or keep the current one).',
  saved: 'Service saved',
  created: 'Service created',
  groupSaved: 'Group saved',
  groupCreated: 'Group added: it stays hidden from the store until one of its services is published.',
  groupImageRequired: 'Upload an image: the store shows it beside the group’s title.',
  groupMoved: 'Group moved',
  groupDeleted: 'Group deleted',
  groupNotEmpty: (services: number) =>
    `Only an empty group can be deleted: this one has ${services} ${services === 1 ? 'service' : 'services'} (drafts count).`,
  moved: 'Service moved',
  kindLocked: (running: number) =>
    `What the service sells cannot change while ${running} paid ${running === 1 ? 'order of it is' : 'orders of it are'} still running: ${running === 1 ? 'it was' : 'they were'} bought as it is now. Change it once ${running === 1 ? 'that order has' : 'they have'} finished, or add a new service for the new kind.`,
} as const;

const required = (what: string, max: number) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(max, `${what} must be at most ${max} characters.`);

const TierSchema = z.object({
  qty: z
    .number({ error: 'Quantity must be a whole number.' })
    .int('Quantity must be a whole number.')
    .min(1, 'Quantity must be at least 1.')
    .max(100_000_000, 'Quantity must be at most 100,000,000.'),
  text: required('Tier text', 100),
  price: z
    .string({ error: 'Price is required.' })
    .trim()
    .regex(PRICE_PATTERN, 'Price must be an amount such as 2.99 (at most 4 decimals).')
    .refine((value) => Number(value) > 0, 'Price must be more than 0.')
    .refine((value) => Number(value) <= 1_000_000, 'Price must be at most 1,000,000.'),
  discount: z
    .number({ error: 'Discount must be a whole percent.' })
    .int('Discount must be a whole percent.')
    .min(0, 'Discount must be from 0 to 99.')
    .max(99, 'Discount must be from 0 to 99.'),
  supplierPanelId: integerColumn('Choose a supplier panel.', 1),
  supplierServiceId: required('Supplier service id', 100),
});

const PlanSchema = z
  .object({
    type: z.enum(PLAN_TYPES, { error: `Plan type must be one of ${PLAN_TYPES.join(', ')}.` }),
    title: required('Plan title', 100),
    icon: z.string().trim().max(300, 'Icon must be at most 300 characters.'),
    currency: required('Currency', 8),
    options: z.array(required('Option', 200)).max(20, 'At most 20 options.'),
    tiers: z.array(TierSchema).min(1, 'A plan needs at least one tier.').max(30, 'At most 30 tiers.'),
  })
  .superRefine((plan, ctx) => {
    const seen = new Set<number>();
    plan.tiers.forEach((tier, index) => {
      if (seen.has(tier.qty))
        ctx.addIssue({ code: 'custom', path: ['tiers', index, 'qty'], message: 'Two tiers have this quantity.' });
      seen.add(tier.qty);
    });
  });

const periodMessage = `The period is ${PERIOD_DAYS_MIN} to ${PERIOD_DAYS_MAX} days.`;
const postsMessage = `Posts per period are 1 to ${POSTS_PER_PERIOD_MAX}.`;

/** A subscription kind's terms (decision 057): ignored, and stored as none, for a one-off package. */
const TermsSchema = z.object({
  periodDays: z
    .number({ error: periodMessage })
    .int(periodMessage)
    .min(PERIOD_DAYS_MIN, periodMessage)
    .max(PERIOD_DAYS_MAX, periodMessage),
  /** Automatic likes: how many new posts one period covers. */
  posts: z
    .number({ error: postsMessage })
    .int(postsMessage)
    .min(1, postsMessage)
    .max(POSTS_PER_PERIOD_MAX, postsMessage)
    .optional(),
  /** Automatic likes: minutes the panel waits after a post (one of the delays panels accept). */
  delayMinutes: z
    .number({ error: 'Choose one of the delays offered.' })
    .refine((value) => (POST_DELAY_MINUTES as readonly number[]).includes(value), 'Choose one of the delays offered.')
    .optional(),
});

const ServiceFieldsSchema = z.object({
  slug: z
    .string({ error: 'Slug is required.' })
    .trim()
    .min(1, 'Slug is required.')
    .max(80, 'Slug must be at most 80 characters.')
    .regex(SERVICE_SLUG_PATTERN, 'Slug must be lowercase letters, digits and single hyphens (e.g. tiktok-likes).'),
  name: required('Name', 100),
  titleHtml: required('Title', 2000),
  description: z.string().trim().max(5000, 'Description must be at most 5000 characters.'),
  image: z.string().trim().max(300, 'Image must be at most 300 characters.'),
  targetKind: z.enum(TARGET_KINDS, { error: 'Choose what the buyer enters.' }),
  commentRequired: z.boolean(),
  status: z.enum(SERVICE_STATUSES, { error: 'Status must be draft or published.' }),
  /** What the service sells; a save without it keeps to a one-off package (the API before decision 057). */
  kind: z.enum(SERVICE_KINDS, { error: 'Choose what the service sells.' }).default('package'),
  terms: TermsSchema.optional(),
  plans: z.array(PlanSchema).min(1, 'A service needs at least one plan.').max(3, 'At most 3 plans.'),
});

type ServiceFields = z.infer<typeof ServiceFieldsSchema>;

/**
 * Checks across fields: each plan type once, and a subscription kind's terms present (the server
 * checks the kind against what the buyer enters, core/catalogue/catalogue-writes.ts).
 */
function acrossFields(service: Pick<ServiceFields, 'plans' | 'kind' | 'terms'>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  service.plans.forEach((plan, index) => {
    if (seen.has(plan.type))
      ctx.addIssue({ code: 'custom', path: ['plans', index, 'type'], message: 'Two plans have this type.' });
    seen.add(plan.type);
  });
  if (service.kind === 'package') return;
  if (!service.terms) ctx.addIssue({ code: 'custom', path: ['terms', 'periodDays'], message: periodMessage });
  else if (service.kind === 'automatic_likes' && service.terms.posts === undefined)
    ctx.addIssue({ code: 'custom', path: ['terms', 'posts'], message: postsMessage });
}

/**
 * The owner confirmed the save's risky prices (below the floor, or more than half off:
 * ./risky-prices.ts); without it such a save is refused with 409 and the list of those tiers.
 */
const RiskConfirmation = {
  confirmRiskyPrices: z
    .boolean({ error: 'confirmRiskyPrices must be true or false.' })
    .optional()
    .describe('Save even though some prices are below the floor or more than half off (the 409 lists them)'),
};

export const ServiceInputSchema = ServiceFieldsSchema.extend(RiskConfirmation).superRefine(acrossFields);

/** A save: the fields, and the revision the editor opened (the compare-and-set's expectation). */
export const ServiceSaveSchema = ServiceFieldsSchema.extend({
  ...RiskConfirmation,
  revision: z
    .number({ error: 'revision is required.' })
    .int('revision is required.')
    .min(1, 'revision is required.')
    .max(INTEGER_COLUMN_MAX, 'revision is required.'),
}).superRefine(acrossFields);

/** The editor's document as the API returns it. */
export const ServiceDocumentSchema = ServiceFieldsSchema.extend({
  groupSlug: z.string(),
  revision: z.number().int(),
  publishedAt: z.string().nullable(),
});

export type ServiceInput = z.infer<typeof ServiceInputSchema>;

/**
 * The terms a save stores for its kind, in the catalogue's shape: none for a package, the period
 * for daily followers, the period, posts and delay for automatic likes.
 */
export function termsOfInput(input: Pick<ServiceInput, 'kind' | 'terms'>): ServiceTerms | undefined {
  if (input.kind === 'package' || !input.terms) return undefined;
  const { periodDays, posts, delayMinutes } = input.terms;
  if (input.kind === 'daily_followers') return { periodDays };
  return {
    periodDays,
    ...(posts === undefined ? {} : { posts }),
    delayMinutes: delayMinutes ?? 0,
  };
}

export const GroupInputSchema = z.object({
  title: required('Title', 100),
  image: z.string().trim().max(300, 'Image must be at most 300 characters.'),
});
export type GroupInput = z.infer<typeof GroupInputSchema>;

/** A new group: its slug too (unique across groups and services, fixed once added). */
export const NewGroupInputSchema = GroupInputSchema.extend({
  slug: z
    .string({ error: 'Slug is required.' })
    .trim()
    .min(1, 'Slug is required.')
    .max(80, 'Slug must be at most 80 characters.')
    .regex(SERVICE_SLUG_PATTERN, 'Slug must be lowercase letters, digits and single hyphens (e.g. facebook).'),
});
export type NewGroupInput = z.infer<typeof NewGroupInputSchema>;

/** A service as the editor opens it: the input's fields plus what the store keeps. */
export interface ServiceDocument extends ServiceInput {
  groupSlug: string;
  revision: number;
  /** Set once the service has been published; its slug is fixed from then on. */
  publishedAt: string | null;
}

/** One field's refusal, named by its path ("plans.0.tiers.2.price"), as the API's `errors`. */
export interface FieldError {
  field: string;
  message: string;
}

export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
}

/** A tier's warning from the save (never blocks it). */
export interface TierWarning {
  field: string;
  message: string;
}
