/**
 * How stored uploads are named and rendered, with no dependency at all (no sharp, no Node APIs),
 * so anything may import it: the serving route, the cleanup job, the HTML sanitiser, page loaders.
 * The files themselves are made by core/uploads/images.ts.
 */

/** URL path prefix of every stored upload; the files live in `DATA_DIR/uploads/`. */
export const UPLOADS_URL_PREFIX = '/uploads/';

/** Widths of the WebP variants, each made only when narrower than the stored image. */
const VARIANT_WIDTHS = [480, 960, 1600] as const;

/**
 * A stored upload's file name: `<hash>.<ext>` (the fallback) or `<hash>-<width>w.webp` (a variant),
 * the hash being 32 hex digits of the SHA-256 of the uploaded bytes. Nothing else is ever served
 * from the uploads folder, and only these are images a post body may show.
 */
export const UPLOAD_FILE_NAME = /^([0-9a-f]{32})(?:-([1-9]\d{1,3})w)?\.(webp|png|jpg)$/;

/** Where a stored upload is referenced: `/uploads/<hash>` anywhere in a URL or HTML. */
export const UPLOAD_REFERENCE = /\/uploads\/([0-9a-f]{32})[-.]/g;

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The content type a stored file is served with (we chose its extension), or null for other names. */
export function uploadContentType(fileName: string): string | null {
  const match = UPLOAD_FILE_NAME.exec(fileName);
  return match?.[3] ? (CONTENT_TYPES[match[3]] ?? null) : null;
}

/** Whether `path` (e.g. `/uploads/<hash>.png`) names a stored upload. */
export function isUploadPath(path: string): boolean {
  return path.startsWith(UPLOADS_URL_PREFIX) && UPLOAD_FILE_NAME.test(path.slice(UPLOADS_URL_PREFIX.length));
}

/** The variant widths an image of this stored width has: the standard ones below it, and its own. */
export function variantWidths(width: number): number[] {
  return [...VARIANT_WIDTHS.filter((w) => w < width), width];
}

export function variantName(hash: string, width: number): string {
  return `${hash}-${width}w.webp`;
}

interface ResponsiveImage {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/**
 * How to render a stored image URL: our uploads get a WebP `srcSet` of their variants (known
 * from the stored width), anything else (seeded images under /images/, '' for none) only `src`.
 * `height` is accepted for symmetry with the stored size; the variants depend on the width only.
 */
export function responsiveImage(url: string, width?: number | null, _height?: number | null): ResponsiveImage {
  if (!url.startsWith(UPLOADS_URL_PREFIX) || !width) return { src: url };
  const match = UPLOAD_FILE_NAME.exec(url.slice(UPLOADS_URL_PREFIX.length));
  const hash = match?.[1];
  if (!hash || match[2] !== undefined) return { src: url };
  const srcSet = variantWidths(width)
    .map((w) => `${UPLOADS_URL_PREFIX}${variantName(hash, w)} ${w}w`)
    .join(', ');
  return { src: url, srcSet, sizes: `(max-width: ${width}px) 100vw, ${width}px` };
}
