/**
 * Supplier panels over HTTP (decision 045), owner only: the panels with their balances, add /
 * edit / remove a stored panel, import a panel's services, and the imported list. Thin: the rules
 * are in core/fulfilment/panels-admin.ts. API keys come in as `apiKey` (redacted from the audit
 * log by its name) and never go out: replies say `keySaved`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SupplierAdmin } from '../../core/fulfilment/panels-admin.ts';
import {
  AddPanelSchema,
  EditPanelSchema,
  ImportResultSchema,
  PanelBalanceSchema,
  PanelIdParamsSchema,
  PanelViewSchema,
  SUPPLIER_MESSAGES,
  ServiceListQuerySchema,
  ServiceListSchema,
  SuppliersPageSchema,
} from '../../core/fulfilment/supplier-contracts.ts';
import { type AuthenticateToken, OWNER_ONLY, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

interface AdminSuppliersApiOptions {
  suppliers: SupplierAdmin;
  authenticate: AuthenticateToken;
}

const refusals = { 400: FailureSchema, 401: FailureSchema, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema };

export const adminSuppliersApi: FastifyPluginAsyncZod<AdminSuppliersApiOptions> = async (app, options) => {
  const { suppliers } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));
  app.setErrorHandler(specValidationErrors());

  app.get(
    '/admin/suppliers',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The supplier panels: name, where the URL comes from, currency, low-balance threshold, imported services, tiers mapped; whether panels can be added',
        response: { 200: envelopeOf(SuppliersPageSchema), 401: FailureSchema, 403: FailureSchema },
      },
    },
    async () => ok(await suppliers.page()),
  );

  app.get(
    '/admin/suppliers/balances',
    {
      schema: {
        tags: ['admin'],
        summary: 'Each panel’s balance, asked at most once a minute per panel',
        response: { 200: envelopeOf(z.array(PanelBalanceSchema)), 401: FailureSchema, 403: FailureSchema },
      },
    },
    async () => ok(await suppliers.balances()),
  );

  app.post(
    '/admin/suppliers',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Add a supplier panel (SMM panel API v2): the URL and key are checked with a `balance` call first; the key is stored encrypted and never returned',
        body: AddPanelSchema,
        response: { 200: envelopeOf(PanelViewSchema), ...refusals },
      },
    },
    async (request) => ok(await suppliers.add(request.body), SUPPLIER_MESSAGES.added),
  );

  app.patch(
    '/admin/suppliers/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Edit a panel: name, low-balance threshold; for stored panels also the URL and a new key (checked with `balance` first)',
        params: PanelIdParamsSchema,
        body: EditPanelSchema,
        response: { 200: envelopeOf(PanelViewSchema), ...refusals },
      },
    },
    async (request) => ok(await suppliers.edit(request.params.id, request.body), SUPPLIER_MESSAGES.saved),
  );

  app.delete(
    '/admin/suppliers/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a stored panel; refused while a price tier or an unfinished order uses it',
        params: PanelIdParamsSchema,
        response: { 200: envelopeOf(z.object({ id: z.number().int() })), ...refusals },
      },
    },
    async (request) => {
      await suppliers.remove(request.params.id);
      return ok({ id: request.params.id }, SUPPLIER_MESSAGES.removed);
    },
  );

  app.post(
    '/admin/suppliers/:id/import',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Import the panel’s services (`services`): upserted; services it no longer lists are marked; tiers mapped to a missing service are listed as warnings',
        params: PanelIdParamsSchema,
        response: { 200: envelopeOf(ImportResultSchema), ...refusals },
      },
    },
    async (request) => {
      const result = await suppliers.importServices(request.params.id);
      return ok(result, SUPPLIER_MESSAGES.imported(result.imported));
    },
  );

  app.get(
    '/admin/suppliers/:id/services',
    {
      schema: {
        tags: ['admin'],
        summary:
          'A panel’s imported services, offered first, by category and name; search (name or id) and category filter',
        params: PanelIdParamsSchema,
        querystring: ServiceListQuerySchema,
        response: { 200: envelopeOf(ServiceListSchema), ...refusals },
      },
    },
    async (request) => ok(await suppliers.services(request.params.id, request.query)),
  );
};
