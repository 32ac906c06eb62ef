import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Catalogue } from '../../core/catalogue/catalogue.ts';
import { SLUG_PATTERN } from '../../core/catalogue/order-path.ts';
import { PLAN_TYPES, TARGET_KINDS } from '../../core/catalogue/types.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';

const TierSchema = z.object({
  qty: z.number().int(),
  text: z.string(),
  price: z.number(),
  discount: z.number(),
  /** While a sale covers the tier: its price before the sale; `price` is the sale price (decision 031). */
  listPrice: z.number().optional(),
});
const PlanSchema = z.object({
  type: z.enum(PLAN_TYPES),
  title: z.string(),
  icon: z.string(),
  currency: z.string(),
  option: z.array(z.object({ name: z.string() })),
  list: z.array(TierSchema),
});
const ServiceSchema = z.object({
  slug: z.string(),
  name: z.string(),
  title: z.string().describe('Sanitised HTML'),
  description: z.string(),
  image: z.string(),
  targetKind: z.enum(TARGET_KINDS),
  commentRequired: z.boolean(),
  plans: z.array(PlanSchema),
});
const GroupSchema = z.object({
  slug: z.string(),
  title: z.string(),
  image: z.string(),
  services: z.array(z.object({ name: z.string(), slug: z.string() })),
});
const GroupDetailSchema = z.object({
  group: z.object({ slug: z.string(), title: z.string(), image: z.string() }),
  selected: z.string().describe('The service the slug named, or the group’s first service'),
  services: z.array(ServiceSchema),
});

export const catalogueApi: FastifyPluginAsyncZod<{ catalogue: Catalogue }> = async (app, { catalogue }) => {
  app.get(
    '/services',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Service groups (Instagram, YouTube, TikTok) with their services, for tabs and the footer',
        response: { 200: envelopeOf(z.array(GroupSchema)) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60, stale-while-revalidate=600');
      return ok(await catalogue.listGroups());
    },
  );

  app.get(
    '/services/:slug',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'A group (by group or service slug) with its services, plans and price tiers',
        params: z.object({
          slug: z.string().max(80).regex(SLUG_PATTERN, 'must be a lowercase slug such as instagram-followers'),
        }),
        response: { 200: envelopeOf(GroupDetailSchema), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request, reply) => {
      const detail = await catalogue.getGroupDetail(request.params.slug);
      if (!detail) return reply.status(404).send(failure('Service not found'));
      reply.header('cache-control', 'public, max-age=60, stale-while-revalidate=600');
      return ok(detail);
    },
  );
};
