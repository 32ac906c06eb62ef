/**
 * The image a link preview shows for a blog page (Open Graph, the Twitter card, the BlogPosting
 * JSON-LD). Facebook, X and LinkedIn ignore SVG there, so it is always a raster, while the page
 * itself keeps whatever looks best (decision 020):
 *
 * - a seeded illustration, `/images/blog/<name>.svg`, has a PNG rendition next to it,
 *   `/images/blog/<name>.png` (1200×675, made by scripts/render-blog-share-images.ts);
 * - an uploaded cover is already a raster (uploads are re-encoded, SVG rasterised: decision 019);
 * - no image, or any other SVG: the blog's own share image.
 */
import { isUploadPath } from '../uploads/names.ts';

/** Size of the PNG renditions: 16:9 like the illustrations, wide enough for every network. */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 675;

/** The blog's share image, for list pages and posts without a raster of their own. */
export const BLOG_SHARE_IMAGE = '/images/blog/blog-default.png';

const SEEDED_ILLUSTRATION = /^\/images\/blog\/([a-z0-9-]+)\.svg$/;
const RASTER_PATH = /^\/[^?#]*\.(?:png|jpe?g|webp|gif)$/i;

/** The raster image link previews show for a post whose page shows `image` ('' for none). */
export function shareImageOf(image: string): string {
  const illustration = SEEDED_ILLUSTRATION.exec(image);
  if (illustration) return `/images/blog/${illustration[1]}.png`;
  if (isUploadPath(image) || RASTER_PATH.test(image)) return image;
  return BLOG_SHARE_IMAGE;
}
