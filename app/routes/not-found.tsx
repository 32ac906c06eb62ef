import { data } from 'react-router';
import { NotFound } from '../components/NotFound.tsx';

export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => [{ title: 'Page not found | Boostly' }];

export default function NotFoundRoute() {
  return <NotFound />;
}
