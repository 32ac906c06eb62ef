import { data } from 'react-router';
import { NotFound } from '../components/NotFound.tsx';
import { privatePageMeta } from '../seo/meta.ts';
import { FRAMEWORK_FREE } from '../page-handle.ts';

export function loader() {
  return data(null, { status: 404 });
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const meta = () => privatePageMeta('Page not found');

export default function NotFoundRoute() {
  return <NotFound />;
}
