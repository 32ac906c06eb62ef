/** Title, description, canonical URL and social tags for a help or legal page: the store's `pageMeta`. */
import type { MetaDescriptor } from 'react-router';
import { type JsonLd, breadcrumbJsonLd, pageMeta } from '../../seo/meta.ts';
import type { HelpPage } from './pages.ts';

/** A help or legal page's tags, with its breadcrumb (Home › page) and any JSON-LD of its own. */
export function helpPageMeta(page: HelpPage, publicUrl: string | undefined, jsonLd?: JsonLd): MetaDescriptor[] {
  return pageMeta({
    publicUrl,
    path: page.path,
    title: page.title,
    description: page.description,
    jsonLd: [breadcrumbJsonLd(publicUrl, [{ name: page.label, path: page.path }]), ...(jsonLd ? [jsonLd] : [])],
  });
}
