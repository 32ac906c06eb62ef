/**
 * Parts of a page that the browser loads lazily but the server renders in place (decision 050).
 *
 * A lazy part keeps its code out of a page's first-load JavaScript (120 KB budget, decision 036):
 * the browser fetches its chunk with `import()` and hydrates it when it arrives, keeping the server's
 * HTML meanwhile, so nothing moves. On the server the same `React.lazy` would suspend on the first
 * render after a boot and stream the part in after the page body (a phone painted the page without
 * it, then moved everything; the page cache kept that HTML). So entry.server.tsx hands every lazily
 * loaded module over here, by key, and a part then resolves within the same render.
 *
 * In the browser a module, once loaded, is kept here too, so a part of it that renders later (another
 * part of the same module, or the same page after a navigation) resolves at once instead of showing
 * its fallback for a moment.
 */
import { type FunctionComponent, type LazyExoticComponent, type ReactNode, lazy } from 'react';
import type * as StorefrontChrome from './StorefrontChrome.tsx';
import type * as OrderExtras from './order/OrderExtras.tsx';

/** Every module loaded this way, by key (type-only imports: the browser fetches each with `import()`). */
export interface LazyModules {
  /** The sale bar, header and footer (app/root.tsx). */
  chrome: typeof StorefrontChrome;
  /** The order page's header, activity line, trust list, secure-checkout note and payment method chooser (order/lazy-extras.tsx). */
  orderExtras: typeof OrderExtras;
}

export type LazyModuleKey = keyof LazyModules;

/** The names of a module's exports that are function components. */
type PartName<K extends LazyModuleKey> = {
  [P in keyof LazyModules[K]]: LazyModules[K][P] extends (props: never) => ReactNode ? P : never;
}[keyof LazyModules[K]];

/** A part's props. */
type PartProps<K extends LazyModuleKey, P extends PartName<K>> = LazyModules[K][P] extends (
  props: infer Props,
) => ReactNode
  ? Props
  : never;

type Part<K extends LazyModuleKey, P extends PartName<K>> = FunctionComponent<PartProps<K, P>>;

/** Filled by entry.server.tsx on the server, and by each module's first load in the browser. */
const loaded: { [K in LazyModuleKey]?: LazyModules[K] } = {};

/** On the server, before the first render: every lazily loaded module. */
export function provideLazyModules(modules: LazyModules): void {
  Object.assign(loaded, modules);
}

/** Loads a module in the browser (once) and keeps it for the parts that render later. */
export function loadLazyModule<K extends LazyModuleKey>(
  key: K,
  load: () => Promise<LazyModules[K]>,
): Promise<LazyModules[K]> {
  return load().then((module) => {
    loaded[key] ??= module;
    return module;
  });
}

/**
 * `React.lazy` for one component of a lazily loaded module. Where the module is already here (always
 * on the server; in the browser once loaded) React gets a thenable that calls back at once, and so
 * has the component before it would suspend; otherwise the chunk's import.
 */
export function lazyPart<K extends LazyModuleKey, P extends PartName<K>>(
  key: K,
  part: P,
  load: () => Promise<LazyModules[K]>,
): LazyExoticComponent<Part<K, P>> {
  return lazy(() => {
    // The cast names what PartName guarantees: the export `part` of this module is a component
    // taking PartProps (TypeScript does not carry that through the mapped type).
    const partOf = (module: LazyModules[K]) => ({ default: module[part] as unknown as Part<K, P> });
    const ready = loaded[key] as LazyModules[K] | undefined;
    if (ready) {
      const resolved = partOf(ready);
      // React.lazy only calls `then`; a real Promise would call back a microtask later, too late.
      return {
        then: (onFulfilled: (value: typeof resolved) => unknown) => onFulfilled(resolved),
      } as unknown as Promise<typeof resolved>;
    }
    return loadLazyModule(key, load).then(partOf);
  });
}
