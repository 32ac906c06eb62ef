/** Title, description, canonical URL (on PUBLIC_URL) and social tags for a help or legal page. */
import type { MetaDescriptor } from 'react-router';
import type { HelpPage } from './pages.ts';

const SHARE_IMAGE = '/images/logo.svg';

export function helpPageMeta(page: HelpPage, publicUrl: string | undefined, jsonLd?: object): MetaDescriptor[] {
  const base = `${publicUrl ?? ''}/`;
  const url = new URL(page.path, base).href;
  const image = new URL(SHARE_IMAGE, base).href;
  const tags: MetaDescriptor[] = [
    { title: `${page.title} | Boostly` },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: 'Boostly' },
    { property: 'og:type', content: 'website' },
    { property: 'og:title', content: page.title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: page.title },
    { name: 'twitter:description', content: page.description },
    { name: 'twitter:image', content: image },
  ];
  // React Router's <Meta> escapes `<` in JSON-LD (\u003c), so text cannot close the script tag.
  if (jsonLd) tags.push({ 'script:ld+json': jsonLd });
  return tags;
}
