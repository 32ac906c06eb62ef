import { data, redirect } from 'react-router';
import type { Route } from './+types/post';
import { CacheStrategy } from '../../cache.ts';
import { BlogRouteError } from '../../components/blog/ListViews.tsx';
import { PostArticle } from '../../components/blog/PostArticle.tsx';
import { PostCard } from '../../components/blog/PostCard.tsx';
import { postPath } from '../../components/blog/format.ts';
import { blogPostBreadcrumbJsonLd, blogPostingJsonLd } from '../../components/blog/post-json-ld.ts';
import { blogMeta } from '../../components/blog/seo.ts';
import { shareImageOf } from '../../../core/blog/share-image.ts';
import { requestContext } from '../../context.ts';
import { articleOf, cardOf, notFound } from './blog-data.server.ts';
import { FRAMEWORK_FREE } from '../../page-handle.ts';

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

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

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
      <PostArticle article={article} />
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
