/**
 * The security page's TOTP block (decision 022): when the server says TOTP cannot be set up, the
 * page shows the reason and no set-up button (the server would refuse it); otherwise the button.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SecondFactorStatusReply } from '../../core/auth/contracts.ts';
import Security from '../../app/routes/admin/security.tsx';
import type { Route } from '../../app/routes/admin/+types/security';

async function renderSecurity(status: SecondFactorStatusReply): Promise<string> {
  const props = {
    loaderData: { ok: true as const, status },
    params: {},
    matches: [],
  } as unknown as Route.ComponentProps;
  const routes = [{ path: '/admin/security', Component: () => <Security {...props} /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/admin/security'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
}

const offStatus = { method: 'email', recoveryCodesLeft: 0, totpEnabledAt: null } as const;

describe('the security page', () => {
  it('explains why TOTP cannot be set up, with no set-up button, when the server has no key', async () => {
    const reason = 'An authenticator app cannot be set up on this server yet: it has no TOTP_ENCRYPTION_KEY.';
    const html = await renderSecurity({ ...offStatus, totpSetup: { available: false, reason } });
    expect(html).toContain('data-testid="totp-unavailable"');
    expect(html).toContain(reason);
    expect(html).toContain('data-testid="totp-status"');
    expect(html).not.toContain('Set up an authenticator app');
  });

  it('offers the set-up button when the server can enrol', async () => {
    const html = await renderSecurity({ ...offStatus, totpSetup: { available: true, reason: null } });
    expect(html).toContain('Set up an authenticator app');
    expect(html).not.toContain('totp-unavailable');
  });
});
