/**
 * Images the admin uploads (blog cover images and images inside a post's body), decided by their
 * bytes and re-encoded before anything is stored (docs/decisions/019-uploads-and-stored-html.md):
 *
 * - The type comes from the content (file-type's magic numbers; SVG, which is text, by finding
 *   an `<svg>` root element), never from the file name or the client's content type.
 * - JPEG, PNG and WebP are decoded and encoded again with sharp: EXIF orientation applied, every
 *   piece of metadata (EXIF with GPS positions, XMP, ICC, comments) left behind, the size capped.
 * - SVG is rasterised to PNG/WebP. A browser never receives an uploaded SVG, so no script, event
 *   handler, external reference or `foreignObject` in one can ever run: there is nothing to get
 *   wrong in an SVG allowlist.
 * - Every image gets WebP variants at standard widths for `srcset`, and one fallback in a widely
 *   supported format. File names are the content hash: the same image twice is one set of files,
 *   and a URL's content never changes (served with immutable caching).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { IMAGE_HEAD_BYTES, imageKindOfHead } from './image-signature.ts';
import { UPLOADS_URL_PREFIX, variantName, variantWidths } from './names.ts';

// The naming rules and `responsiveImage` live in names.ts (no dependencies); the blog's contract
// names this module, so they are reachable from here too.
export { UPLOAD_FILE_NAME, responsiveImage, uploadContentType } from './names.ts';

/** What an upload becomes: the fallback's URL (relative, `/uploads/...`) and its size. */
export interface StoredImage {
  url: string;
  width: number | null;
  height: number | null;
  contentType: string;
}

type StoreImageResult = { ok: true; image: StoredImage } | { ok: false; message: string; status: 400 | 413 };

interface StoreImageOptions {
  /** Largest accepted upload in bytes (UPLOAD_MAX_BYTES). */
  maxBytes?: number;
}

/** The spec's message for a file that is not one of the four image types. */
export const IMAGE_TYPE_MESSAGE = 'Only jpg, png, svg, and webp files are allowed';
const DEFAULT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export function imageTooLargeMessage(maxBytes: number): string {
  return `The image is too large: the limit is ${formatBytes(maxBytes)}.`;
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** No stored image is wider or taller than this. */
const MAX_EDGE = 1600;
/** Decompression bombs: sharp refuses inputs with more pixels than this before decoding them. */
const MAX_INPUT_PIXELS = 40_000_000;
/** An SVG is rendered so its longest edge is at least this (vectors scale without loss). */
const SVG_MIN_EDGE = 960;
/** A pathological image must not hold the request (and a CPU) for long. */
const SHARP_TIMEOUT_SECONDS = 20;

/** Hex characters of the SHA-256 kept in file names (128 bits: no collisions in practice). */
const HASH_LENGTH = 32;

type SourceKind = 'jpeg' | 'png' | 'webp' | 'svg';

/** The kind of image in these bytes, or null for anything we do not take. */
async function detectImageKind(bytes: Buffer): Promise<SourceKind | null> {
  // The gate the admin's browser applies too: what fails it is refused the same way on both.
  if (imageKindOfHead(bytes.subarray(0, IMAGE_HEAD_BYTES)) === null) return null;
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    if (detected.mime === 'image/jpeg') return 'jpeg';
    if (detected.mime === 'image/png') return 'png';
    if (detected.mime === 'image/webp') return 'webp';
    // file-type calls any text with an XML declaration XML; whether it is an SVG is decided below.
    if (!['application/xml', 'text/xml', 'image/svg+xml'].includes(detected.mime)) return null;
  }
  return looksLikeSvg(bytes) ? 'svg' : null;
}

/**
 * Whether these bytes are an SVG document: UTF-8 text whose root element is `<svg>`, after an
 * optional BOM, XML declaration, comments, processing instructions and a DOCTYPE without an
 * internal subset (entity declarations are how XML bombs and external entities get in: refused).
 * An HTML page with an `<svg>` inside is not an SVG. Whether it really is a well-formed SVG is
 * then up to librsvg, which refuses what it cannot parse.
 */
function looksLikeSvg(bytes: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (/<!ENTITY/i.test(text)) return false;
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return false;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return false;
      rest = rest.slice(end + 3);
    } else if (/^<!DOCTYPE/i.test(rest)) {
      const end = rest.indexOf('>');
      if (end < 0 || rest.slice(0, end).includes('[')) return false;
      rest = rest.slice(end + 1);
    } else {
      return /^<svg[\s/>]/.test(rest);
    }
  }
}

function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
}

const FALLBACK: Record<SourceKind, { ext: 'jpg' | 'png' | 'webp'; contentType: string }> = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
  // A rasterised SVG is usually a drawing: flat colours and sharp edges suit PNG.
  svg: { ext: 'png', contentType: 'image/png' },
};

/** Writes a file so readers see either nothing or all of it: a temporary name, then a rename. */
async function writeAtomically(dir: string, name: string, data: Buffer): Promise<void> {
  const temporary = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}-${name}`);
  await writeFile(temporary, data, { flag: 'wx' });
  try {
    await rename(temporary, path.join(dir, name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** sharp's input options for every decode: pixel limit, timeout-friendly, fail on corrupt data. */
function decoder(bytes: Buffer, density?: number) {
  return sharp(bytes, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: 'error',
    ...(density ? { density } : {}),
  }).timeout({ seconds: SHARP_TIMEOUT_SECONDS });
}

/** For an SVG: the density that renders its longest edge between SVG_MIN_EDGE and MAX_EDGE. */
async function svgDensity(bytes: Buffer): Promise<number> {
  const { width, height } = await decoder(bytes).metadata();
  const longest = Math.max(width ?? 0, height ?? 0);
  if (!(longest > 0)) return 72;
  const target = Math.min(Math.max(longest, SVG_MIN_EDGE), MAX_EDGE);
  // sharp's density range; at 72 dpi an SVG renders at its own size.
  return Math.min(Math.max((72 * target) / longest, 1), 100_000);
}

/**
 * One decode: orientation applied, capped in size, to raw pixels that every encoder shares. Raw
 * pixels carry no metadata at all, so nothing of the upload's EXIF (GPS), XMP or ICC survives.
 */
async function decodeToPixels(bytes: Buffer, kind: SourceKind) {
  const density = kind === 'svg' ? await svgDensity(bytes) : undefined;
  return decoder(bytes, density)
    .autoOrient()
    .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/**
 * Checks, re-encodes and stores one uploaded image under `DATA_DIR/uploads/`. Refusals come back
 * as values with the status and message to answer (never an exception for bad input).
 */
export async function storeUploadedImage(
  dataDir: string,
  bytes: Buffer,
  options: StoreImageOptions = {},
): Promise<StoreImageResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
  if (bytes.length > maxBytes) return { ok: false, status: 413, message: imageTooLargeMessage(maxBytes) };
  const kind = await detectImageKind(bytes);
  if (!kind) return { ok: false, status: 400, message: IMAGE_TYPE_MESSAGE };

  const dir = uploadsDir(dataDir);
  await mkdir(dir, { recursive: true });
  const hash = contentHash(bytes);
  const fallback = FALLBACK[kind];
  const fallbackName = `${hash}.${fallback.ext}`;
  const fallbackPath = path.join(dir, fallbackName);
  const url = `${UPLOADS_URL_PREFIX}${fallbackName}`;

  // Seen before: the fallback is written last, so when it is there every variant is too.
  if (await exists(fallbackPath)) {
    const { width, height } = await sharp(fallbackPath).metadata();
    // A fresh upload restarts the grace period the unreferenced-upload cleanup gives it.
    const now = new Date();
    await Promise.all(
      [fallbackName, ...(width ? variantWidths(width).map((w) => variantName(hash, w)) : [])].map((name) =>
        utimes(path.join(dir, name), now, now).catch(() => undefined),
      ),
    );
    return {
      ok: true,
      image: { url, width: width ?? null, height: height ?? null, contentType: fallback.contentType },
    };
  }

  let master: Awaited<ReturnType<typeof decodeToPixels>>;
  try {
    master = await decodeToPixels(bytes, kind);
  } catch {
    // Not decodable (truncated, corrupt, over the pixel limit, an SVG librsvg cannot parse).
    return { ok: false, status: 400, message: IMAGE_TYPE_MESSAGE };
  }
  const { width, height, channels } = master.info;
  const pixels = () =>
    sharp(master.data, { raw: { width, height, channels } }).timeout({ seconds: SHARP_TIMEOUT_SECONDS });

  for (const w of variantWidths(width)) {
    const variant = await pixels()
      .resize({ width: w, withoutEnlargement: true })
      .webp({ quality: 78, effort: 4 })
      .toBuffer();
    await writeAtomically(dir, variantName(hash, w), variant);
  }
  const encoded =
    fallback.ext === 'jpg'
      ? pixels().jpeg({ quality: 82, mozjpeg: true })
      : fallback.ext === 'png'
        ? pixels().png({ compressionLevel: 9, adaptiveFiltering: true })
        : pixels().webp({ quality: 82, effort: 4 });
  await writeAtomically(dir, fallbackName, await encoded.toBuffer());

  return { ok: true, image: { url, width, height, contentType: fallback.contentType } };
}
