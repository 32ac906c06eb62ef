import { data } from 'react-router';
import { NotFound } from '../components/NotFound.tsx';
import { privatePageMeta } from '../seo/meta.ts';

export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => privatePageMeta('Page not found');

export default function NotFoundRoute() {
  return <NotFound />;
}
