import { Link } from '../Link.tsx';
import { BlogImage } from './BlogImage.tsx';
import { categoryPath, formatPostDate, publishedDateOf } from './format.ts';
import type { BlogArticle } from './types.ts';

/**
 * A post as its page shows it: category, publish date, reading time, title, cover and body. The
 * public post page and the owner's preview of a draft or scheduled post both render this, so the
 * preview looks as the post will on the site. `article.description` must be sanitised HTML.
 */
export function PostArticle({ article }: { article: BlogArticle }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <header>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {article.category && article.categorySlug ? (
            <Link
              to={categoryPath(article.categorySlug)}
              data-testid="post-category"
              className="font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              {article.category}
            </Link>
          ) : null}
          <time dateTime={publishedDateOf(article)} className="text-gray-600">
            {formatPostDate(publishedDateOf(article))}
          </time>
          <span className="text-gray-600" data-testid="reading-time">
            {`${article.readingMinutes} min read`}
          </span>
        </p>
        <h1 className="mt-3 text-3xl font-extrabold leading-tight text-gray-900 sm:text-4xl">{article.title}</h1>
      </header>
      <BlogImage picture={article.picture} alt="" eager className="mt-8 rounded-xl" />
      <div
        data-testid="post-body"
        className="mt-8 space-y-4 text-lg leading-relaxed text-gray-800 [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-gray-900 [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-bold [&_h3]:text-gray-900 [&_h4]:mt-6 [&_h4]:font-bold [&_iframe]:aspect-video [&_iframe]:h-auto [&_iframe]:w-full [&_iframe]:rounded-xl [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-xl [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6"
        // Sanitised by whoever built the article (articleOf on the server; the store on every write).
        dangerouslySetInnerHTML={{ __html: article.description }}
      />
    </article>
  );
}
