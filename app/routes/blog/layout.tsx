import { Outlet } from 'react-router';
import { BlogFooter } from '../../components/blog/BlogFooter.tsx';
import { BlogHeader } from '../../components/blog/BlogHeader.tsx';

/**
 * Every public blog page sits in the blog's own header and footer; the store's top bar and
 * footer are hidden there (app/layout-rules.ts, spec "Layout rules").
 */
export default function BlogLayout() {
  return (
    <div className="flex min-h-full flex-col">
      <BlogHeader />
      <div className="flex-1">
        <Outlet />
      </div>
      <BlogFooter />
    </div>
  );
}
