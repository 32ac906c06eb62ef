import { Link, data, redirect } from 'react-router';
import type { Route } from './+types/post';
import { CacheStrategy } from '../../cache.ts';
import { BlogImage } from '../../components/blog/BlogImage.tsx';
import { BlogRouteError } from '../../components/blog/ListViews.tsx';
import { PostCard } from '../../components/blog/PostCard.tsx';
import { categoryPath, formatPostDate, postPath, publishedDateOf } from '../../components/blog/format.ts';
import { blogPostBreadcrumbJsonLd, blogPostingJsonLd } from '../../components/blog/post-json-ld.ts';
import { blogMeta } from '../../components/blog/seo.ts';
import { shareImageOf } from '../../../core/blog/share-image.ts';
import { requestContext } from '../../context.ts';
import { articleOf, cardOf, notFound } from './blog-data.server.ts';

const RELATED_POSTS = 3;

export async function loader({ params, context }: Route.LoaderArgs) {
  const { blog, publicUrl } = context.get(requestContext).services;
  const post = await blog.findPost(params.slug);
  if (!post) throw notFound();
  // A post found by its id (or an old spelling) lives at its slug: one address per post.
  if (post.slug !== params.slug) throw redirect(postPath(post.slug), 301);
  const related = await blog.relatedPosts(post, RELATED_POSTS);
  return data(
    { article: articleOf(post, publicUrl), related: related.map(cardOf), publicUrl },
    { headers: { 'Cache-Control': CacheStrategy.blog } },
  );
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.blog });

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: 'Page not found | Boostly' }];
  const { article, publicUrl } = loaderData;
  const path = postPath(article.slug);
  // Link previews get a raster (the networks ignore SVG); the page shows the post's own image.
  const shared = { ...article, image: shareImageOf(article.image) };
  return blogMeta({
    publicUrl,
    path,
    title: article.title,
    description: article.shortDesc,
    image: shared.image,
    type: 'article',
    jsonLd: [blogPostingJsonLd(publicUrl, path, shared), blogPostBreadcrumbJsonLd(publicUrl, path, article)],
  });
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { article, related } = loaderData;
  return (
    <>
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
          // Sanitised by the loader (articleOf), whatever the database holds.
          dangerouslySetInnerHTML={{ __html: article.description }}
        />
      </article>
      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mx-auto max-w-6xl px-4 pb-6">
          <h2 id="related-heading" className="text-2xl font-bold text-gray-900">
            Related posts
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {related.map((card) => (
              <li key={card.id} className="flex">
                <PostCard card={card} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BlogRouteError error={error} />;
}
