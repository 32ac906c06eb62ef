/**
 * The built-in simulated supplier panel over HTTP: POST /simulated-panel/api/v2, "SMM panel API
 * v2" as real panels speak it: form-encoded (or JSON) requests, HTTP 200 with JSON replies,
 * errors included (`{ error }`). The store talks to it with the same client it uses for a real
 * panel. Hidden from the OpenAPI document: it is not part of the store's API.
 *
 * Register without fastify-plugin: the form parser below stays inside this plugin's scope.
 */
import type { FastifyPluginAsync } from 'fastify';
import { type SimulatedPanel, panelForm } from '../../core/fulfilment/simulated-panel-protocol.ts';

interface SimulatedPanelApiOptions {
  panel: SimulatedPanel;
}

export const SIMULATED_PANEL_PATH = '/simulated-panel/api/v2';

const FORM = 'application/x-www-form-urlencoded';

export const simulatedPanelApi: FastifyPluginAsync<SimulatedPanelApiOptions> = async (app, { panel }) => {
  if (!app.hasContentTypeParser(FORM)) {
    app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, parsed) => {
      parsed(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }

  app.post(SIMULATED_PANEL_PATH, { schema: { hide: true } }, async (request, reply) => {
    // Some clients put key and action in the query string: the body wins.
    const form = { ...panelForm(request.query), ...panelForm(request.body) };
    const answer = await panel.handle(form);
    return reply.status(200).header('cache-control', 'no-store').send(answer);
  });
};
