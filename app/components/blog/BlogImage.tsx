import type { Picture } from './types.ts';

/** Cards and posts show images in one 16:9 box, so nothing moves while they load. */
const BOX_WIDTH = 1200;
const BOX_HEIGHT = 675;

export interface BlogImageProps {
  picture: Picture | null;
  /** Decorative on cards (the title follows); the post's title on its own page. */
  alt: string;
  /** The first image on a page loads at once (it is the likely largest paint); the rest lazily. */
  eager?: boolean;
  className?: string;
}

/** A post's cover image, or the fallback illustration when it has none (spec: "fallback image"). */
export function BlogImage({ picture, alt, eager = false, className = '' }: BlogImageProps) {
  const box = `aspect-[16/9] w-full bg-brand-50 object-cover ${className}`;
  if (!picture) return <FallbackImage className={box} />;
  return (
    <img
      src={picture.src}
      srcSet={picture.srcSet}
      sizes={picture.sizes}
      width={picture.width ?? BOX_WIDTH}
      height={picture.height ?? BOX_HEIGHT}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className={box}
    />
  );
}

/** Drawn inline: no extra request, and it scales with the box. */
function FallbackImage({ className }: { className: string }) {
  return (
    <svg
      aria-hidden="true"
      data-testid="blog-fallback-image"
      viewBox="0 0 160 90"
      width={BOX_WIDTH}
      height={BOX_HEIGHT}
      className={`h-auto text-brand-200 ${className}`}
    >
      <rect width="160" height="90" fill="currentColor" />
      <circle cx="48" cy="38" r="10" className="fill-brand-500" opacity="0.7" />
      <path d="M20 78 L62 44 L88 64 L108 50 L140 78 Z" className="fill-brand-700" opacity="0.55" />
    </svg>
  );
}
