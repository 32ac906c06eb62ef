/**
 * The catalogue editor over HTTP (decision 044), owner-only. Thin: core/catalogue/editor.ts
 * holds every rule (validation, slugs, the revision compare-and-set, warnings). Every write notes
 * the service (or group) before and after for the audit log; redactSecrets applies there.
 *
 * Images go through the upload pipeline first (`POST /api/uploads`, checked by content); a save
 * names the returned `/uploads/…` URL.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changedFields } from '../../core/audit/audit.ts';
import type { Kysely } from 'kysely';
import {
  type CatalogueEditor,
  type EditorFailure,
  type SupplierDirectory,
  auditViewOf,
} from '../../core/catalogue/editor.ts';
import { findImportedService, listImportedServices, listPanels } from '../../core/fulfilment/supplier-catalogue.ts';
import type { Database } from '../../db/schema.ts';
import { SERVICE_KINDS } from '../../core/subscriptions/terms.ts';
import {
  CATALOGUE_MESSAGES,
  GroupInputSchema,
  NewGroupInputSchema,
  type ServiceDocument,
  ServiceDocumentSchema,
  ServiceInputSchema,
  ServiceSaveSchema,
} from '../../core/catalogue/service-document.ts';
import { type AuthenticateToken, OWNER_ONLY, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, FieldErrorSchema, envelopeOf, failure, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';
import { idParam } from '../../core/integer-columns.ts';
import { PriceFloorBodySchema, PriceFloorSchema } from '../../core/catalogue/price-floor.ts';
import { RiskyPriceSchema } from '../../core/catalogue/risky-prices.ts';

/** The tier editor's supplier lists, from S's registry (decision 045). */
export function supplierDirectory(db: Kysely<Database>): SupplierDirectory {
  return {
    panels: () => listPanels(db),
    importedServices: (panelId) => listImportedServices(db, panelId),
    findService: (panelId, service) => findImportedService(db, panelId, service),
  };
}

interface AdminCatalogueApiOptions {
  editor: CatalogueEditor;
  authenticate: AuthenticateToken;
}

const SlugParams = z.object({ slug: z.string().min(1).max(80) });
const refusals = { 400: FailureSchema, 401: FailureSchema, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema };
/** Moving a group or a service one place: the body, and the reply with the new order of slugs. */
const MoveBody = z.object({ direction: z.enum(['up', 'down'], { error: 'direction must be up or down' }) });
const MoveReply = envelopeOf(z.object({ order: z.array(z.string()) }));

const GroupRowSchema = z.object({
  slug: z.string(),
  title: z.string(),
  image: z.string(),
  services: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      status: z.enum(['draft', 'published']),
      kind: z.enum(SERVICE_KINDS),
      revision: z.number().int(),
      plans: z.array(
        z.object({
          type: z.string(),
          currency: z.string(),
          minPrice: z.number(),
          maxPrice: z.number(),
          tiers: z.number().int(),
        }),
      ),
    }),
  ),
});

/** A save's refusals: its 409 lists the risky prices when that is why (the console asks, then resends). */
const saveRefusals = {
  ...refusals,
  409: FailureSchema.extend({
    riskyPrices: z
      .array(RiskyPriceSchema)
      .optional()
      .describe('Prices below the floor or more than half off: resend with confirmRiskyPrices: true to keep them'),
  }),
};

/** A refused save in the envelope, with its risky prices when it has them. */
function saveFailure(result: EditorFailure) {
  return {
    ...failure(result.message, result.errors),
    ...(result.riskyPrices ? { riskyPrices: result.riskyPrices } : {}),
  };
}

const PRICE_FLOOR_SAVED = 'Price floor saved: a lower price now asks before it is saved.';
const PRICE_FLOOR_OFF = 'Price floor turned off: only a price cut by more than half asks before it is saved.';

const SaveReplySchema = z.object({
  isSuccessful: z.literal(true),
  message: z.string(),
  data: ServiceDocumentSchema,
  warnings: z.array(FieldErrorSchema).describe('Per tier: below cost, outside the supplier limits… (never block)'),
});

/** The audit row keeps the fields that changed (a price edit is logged as that plan's tiers). */
function serviceChange(before: ServiceDocument | null, after: ServiceDocument) {
  if (!before) return { before: null, after: auditViewOf(after) };
  return changedFields(auditViewOf(before), auditViewOf(after));
}

export const adminCatalogueApi: FastifyPluginAsyncZod<AdminCatalogueApiOptions> = async (app, options) => {
  const { editor } = options;
  // The catalogue is the owner's (decision 041): a support admin gets 403 on every route here.
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));
  app.setErrorHandler(specValidationErrors());

  app.get(
    '/admin/catalogue/price-floor',
    {
      schema: {
        tags: ['admin'],
        summary: 'The price floor: a tier priced below it is saved only when the owner confirms it',
        response: { 200: envelopeOf(PriceFloorSchema), 401: FailureSchema, 403: FailureSchema },
      },
    },
    async () => ok(await editor.priceFloor()),
  );

  app.put(
    '/admin/catalogue/price-floor',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set the price floor (an amount such as "0.50"), or turn it off with null',
        body: PriceFloorBodySchema,
        response: { 200: envelopeOf(PriceFloorSchema), 400: FailureSchema, 401: FailureSchema, 403: FailureSchema },
      },
    },
    async (request) => {
      const { before, after } = await editor.savePriceFloor(request.body);
      noteAudit(request, {
        action: 'catalogue.price_floor',
        targetType: 'settings',
        targetId: 'price-floor',
        before: { floor: before.floor },
        after: { floor: after.floor },
      });
      return ok(after, after.floor === null ? PRICE_FLOOR_OFF : PRICE_FLOOR_SAVED);
    },
  );

  app.get(
    '/admin/catalogue',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The catalogue for the editor: groups in order with every service (drafts too), plans and price ranges',
        response: { 200: envelopeOf(z.array(GroupRowSchema)), 401: FailureSchema, 403: FailureSchema },
      },
    },
    async () => ok(await editor.listGroups()),
  );

  app.post(
    '/admin/catalogue/groups',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add a group (last in the order); the store hides it until one of its services is published',
        body: NewGroupInputSchema,
        response: { 201: envelopeOf(NewGroupInputSchema), ...refusals },
      },
    },
    async (request, reply) => {
      const result = await editor.createGroup(request.body);
      if (!result.ok) return reply.status(result.status).send(failure(result.message, result.errors));
      noteAudit(request, {
        action: 'catalogue.group.create',
        targetType: 'service_group',
        targetId: result.group.slug,
        before: null,
        after: result.group,
      });
      return reply.status(201).send(ok(result.group, CATALOGUE_MESSAGES.groupCreated));
    },
  );

  app.post(
    '/admin/catalogue/groups/:slug/move',
    {
      schema: {
        tags: ['admin'],
        summary: 'Move a group up or down in the store’s order',
        params: SlugParams,
        body: MoveBody,
        response: { 200: MoveReply, ...refusals },
      },
    },
    async (request, reply) => {
      const result = await editor.moveGroup(request.params.slug, request.body.direction);
      if (!result.ok) return reply.status(result.status).send(failure(result.message, result.errors));
      noteAudit(request, {
        action: 'catalogue.group.move',
        targetType: 'service_group',
        targetId: request.params.slug,
        after: { direction: request.body.direction, order: result.order },
      });
      return ok({ order: result.order }, CATALOGUE_MESSAGES.groupMoved);
    },
  );

  app.delete(
    '/admin/catalogue/groups/:slug',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a group that has no service at all (drafts count); 409 otherwise',
        params: SlugParams,
        response: { 200: envelopeOf(z.object({ slug: z.string() })), ...refusals },
      },
    },
    async (request, reply) => {
      const result = await editor.deleteGroup(request.params.slug);
      if (!result.ok) return reply.status(result.status).send(failure(result.message, result.errors));
      noteAudit(request, {
        action: 'catalogue.group.delete',
        targetType: 'service_group',
        targetId: request.params.slug,
        before: result.before,
        after: null,
      });
      return ok({ slug: request.params.slug }, CATALOGUE_MESSAGES.groupDeleted);
    },
  );

  app.patch(
    '/admin/catalogue/groups/:slug',
    {
      schema: {
        tags: ['admin'],
        summary: "Edit a group's title and image",
        params: SlugParams,
        body: GroupInputSchema,
        response: { 200: envelopeOf(z.object({ title: z.string(), image: z.string() })), ...refusals },
      },
    },
    async (request, reply) => {
      const result = await editor.updateGroup(request.params.slug, request.body);
      if (!result.ok) return reply.status(result.status).send(failure(result.message, result.errors));
      noteAudit(request, {
        action: 'catalogue.group.update',
        targetType: 'service_group',
        targetId: request.params.slug,
        ...changedFields(result.before, result.after),
      });
      return ok(result.after, CATALOGUE_MESSAGES.groupSaved);
    },
  );

  app.post(
    '/admin/catalogue/groups/:slug/services',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add a service to a group (draft or published)',
        params: SlugParams,
        body: ServiceInputSchema,
        response: { 201: SaveReplySchema, ...saveRefusals },
      },
    },
    async (request, reply) => {
      const result = await editor.createService(request.params.slug, request.body);
      if (!result.ok) return reply.status(result.status).send(saveFailure(result));
      noteAudit(request, {
        action: 'catalogue.service.create',
        targetType: 'service',
        targetId: result.document.slug,
        ...serviceChange(null, result.document),
      });
      return reply.status(201).send({
        isSuccessful: true as const,
        message: CATALOGUE_MESSAGES.created,
        data: result.document,
        warnings: result.warnings,
      });
    },
  );

  app.get(
    '/admin/catalogue/services/:slug',
    {
      schema: {
        tags: ['admin'],
        summary: 'One service as the editor opens it (drafts too), with its revision',
        params: SlugParams,
        response: {
          200: envelopeOf(ServiceDocumentSchema),
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const document = await editor.getService(request.params.slug);
      if (!document) return reply.status(404).send(failure(CATALOGUE_MESSAGES.notFound));
      return ok(document);
    },
  );

  app.patch(
    '/admin/catalogue/services/:slug',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Save a service: only if it is still at `revision` (409 otherwise); a price below the floor or cut by more than half is refused (409 with `riskyPrices`) unless `confirmRiskyPrices` is true; warnings never block',
        params: SlugParams,
        body: ServiceSaveSchema,
        response: { 200: SaveReplySchema, ...saveRefusals },
      },
    },
    async (request, reply) => {
      const { revision, ...fields } = request.body;
      const result = await editor.saveService(request.params.slug, revision, fields);
      if (!result.ok) return reply.status(result.status).send(saveFailure(result));
      noteAudit(request, {
        action: 'catalogue.service.update',
        targetType: 'service',
        targetId: request.params.slug,
        ...serviceChange(result.before, result.document),
      });
      return {
        isSuccessful: true as const,
        message: CATALOGUE_MESSAGES.saved,
        data: result.document,
        warnings: result.warnings,
      };
    },
  );

  app.post(
    '/admin/catalogue/services/:slug/move',
    {
      schema: {
        tags: ['admin'],
        summary: 'Move a service up or down within its group',
        params: SlugParams,
        body: MoveBody,
        response: { 200: MoveReply, ...refusals },
      },
    },
    async (request, reply) => {
      const result = await editor.moveService(request.params.slug, request.body.direction);
      if (!result.ok) return reply.status(result.status).send(failure(result.message, result.errors));
      noteAudit(request, {
        action: 'catalogue.service.move',
        targetType: 'service',
        targetId: request.params.slug,
        after: { direction: request.body.direction, order: result.order },
      });
      return ok({ order: result.order }, CATALOGUE_MESSAGES.moved);
    },
  );

  app.get(
    '/admin/catalogue/panels',
    {
      schema: {
        tags: ['admin'],
        summary: 'Supplier panels a tier can be mapped to (no keys)',
        response: {
          200: envelopeOf(
            z.array(
              z.object({
                id: z.number().int(),
                name: z.string(),
                kind: z.enum(['environment', 'stored']),
                currency: z.string().nullable(),
              }),
            ),
          ),
          401: FailureSchema,
          403: FailureSchema,
        },
      },
    },
    async () => ok(await editor.panels()),
  );

  app.get(
    '/admin/catalogue/panels/:panelId/services',
    {
      schema: {
        tags: ['admin'],
        summary: "A panel's imported services (name, rate per 1000, min, max) for the tier editor",
        params: z.object({ panelId: idParam('must be a panel id') }),
        response: {
          200: envelopeOf(
            z.array(
              z.object({
                service: z.string(),
                name: z.string(),
                category: z.string(),
                type: z.string(),
                rateE4: z.number().int(),
                min: z.number().int(),
                max: z.number().int(),
                refill: z.boolean(),
                cancel: z.boolean(),
              }),
            ),
          ),
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request) => ok(await editor.importedServices(request.params.panelId)),
  );
};
