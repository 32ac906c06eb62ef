import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { Route } from './+types/index';
import { CacheStrategy } from '../../cache.ts';

/** `/admin` opens the orders list. The layout only renders this once a token is present. */

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export default function AdminIndex() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('/admin/all-orders', { replace: true });
  }, [navigate]);
  return null;
}
