/**
 * React Router builds the server's route tree once per build (our patch of react-router, decision
 * 079): every page rendered from a build shares it, and each still gets its own matches, data and
 * markup. A route module that development reloads (its manifest unchanged) is rendered anew.
 */
import { renderToString } from 'react-dom/server';
import {
  type EntryContext,
  type LoaderFunctionArgs,
  Outlet,
  ServerRouter,
  type ServerBuild,
  StaticRouterProvider,
  createRequestHandler,
  createStaticHandler,
  createStaticRouter,
  useLoaderData,
} from 'react-router';
import { describe, expect, it } from 'vitest';

function Page() {
  const { title } = useLoaderData<{ title: string }>();
  return <h1>{title}</h1>;
}

const routes = [
  {
    id: 'root',
    path: '/',
    Component: () => (
      <main>
        <Outlet />
      </main>
    ),
    children: [
      { id: 'home', index: true, loader: () => ({ title: 'Home' }), Component: Page },
      {
        id: 'post',
        path: 'blog/:slug',
        loader: ({ params }: LoaderFunctionArgs) => ({ title: `Post ${params.slug}` }),
        Component: Page,
      },
    ],
  },
];

async function contextAt(handler: ReturnType<typeof createStaticHandler>, path: string) {
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error('unexpected response');
  return context;
}

describe("the static router's route tree", () => {
  it('is built once per routes array and shared by every page', async () => {
    const handler = createStaticHandler(routes);
    const home = createStaticRouter(handler.dataRoutes, await contextAt(handler, '/'));
    const post = createStaticRouter(handler.dataRoutes, await contextAt(handler, '/blog/a'));
    expect(post.routes).toBe(home.routes);
    expect(createStaticRouter([...handler.dataRoutes], await contextAt(handler, '/')).routes).not.toBe(home.routes);
  });

  it('still renders each page with its own matches and data', async () => {
    const handler = createStaticHandler(routes);
    const render = async (path: string) => {
      const context = await contextAt(handler, path);
      const router = createStaticRouter(handler.dataRoutes, context);
      expect(router.state.matches.map((match) => match.route.id)).toEqual(context.matches.map((m) => m.route.id));
      return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
    };
    expect(await render('/blog/first')).toContain('<h1>Post first</h1>');
    expect(await render('/')).toContain('<h1>Home</h1>');
    expect(await render('/blog/second')).toContain('<h1>Post second</h1>');
  });
});

/** A build of one page whose words come from its route module, rendered by `ServerRouter`. */
function buildSaying(words: string, assets: ServerBuild['assets']): ServerBuild {
  const handleRequest = (request: Request, status: number, headers: Headers, context: EntryContext) =>
    new Response(renderToString(<ServerRouter context={context} url={request.url} />), { status, headers });
  return {
    entry: { module: { default: handleRequest } },
    routes: {
      root: { id: 'root', path: '', module: { default: () => <p>{words}</p> } },
    },
    assets,
    assetsBuildDirectory: 'build/client',
    basename: '/',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
    publicPath: '/',
  } as unknown as ServerBuild;
}

describe("the server's route tree", () => {
  it('follows a route module reloaded under the same manifest, as development reloads one', async () => {
    const assets = {
      entry: { module: '/entry.js', imports: [] },
      url: '/manifest.js',
      version: '1',
      routes: {
        root: { id: 'root', path: '', module: '/root.js', hasLoader: false, hasAction: false, hasErrorBoundary: false },
      },
    } as unknown as ServerBuild['assets'];
    const page = async (build: ServerBuild) =>
      (await createRequestHandler(build, 'production')(new Request('http://localhost/'))).text();
    const first = buildSaying('First words', assets);
    expect(await page(first)).toContain('<p>First words</p>');
    expect(await page(first)).toContain('<p>First words</p>');
    expect(await page(buildSaying('Edited words', assets))).toContain('<p>Edited words</p>');
  });
});
