/**
 * Which image an upload's bytes are, by their first bytes (magic numbers), and the messages for a
 * refused file. Pure, with no Node or database imports, so the admin's browser checks a picked
 * file with the same table the server uses (core/uploads/images.ts) and says at once what the
 * server would answer; the server still decides on the whole file.
 */

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'svg';

/** The spec's message for a file that is not one of the four image types. */
export const IMAGE_TYPE_MESSAGE = 'Only jpg, png, svg, and webp files are allowed';
/** UPLOAD_MAX_BYTES when the operator sets none. */
export const DEFAULT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** How much of a file the browser reads to decide: the signatures and an SVG's prologue. */
export const IMAGE_SNIFF_BYTES = 64 * 1024;

export function imageTooLargeMessage(maxBytes: number): string {
  return `The image is too large: the limit is ${formatBytes(maxBytes)}.`;
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** `null` in a pattern matches any byte (the RIFF container's length). */
const BINARY_SIGNATURES: readonly { kind: Exclude<ImageKind, 'svg'>; bytes: readonly (number | null)[] }[] = [
  { kind: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  // "RIFF" <length> "WEBP"
  { kind: 'webp', bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
];

/** The binary image kind these bytes start with, or null. */
export function binaryImageKind(bytes: Uint8Array): Exclude<ImageKind, 'svg'> | null {
  for (const signature of BINARY_SIGNATURES) {
    if (bytes.length < signature.bytes.length) continue;
    if (signature.bytes.every((expected, index) => expected === null || bytes[index] === expected)) {
      return signature.kind;
    }
  }
  return null;
}

/**
 * Whether these bytes are an SVG document: UTF-8 text whose root element is `<svg>`, after an
 * optional BOM, XML declaration, comments, processing instructions and a DOCTYPE without an
 * internal subset (entity declarations are how XML bombs and external entities get in: refused).
 * An HTML page with an `<svg>` inside is not an SVG. With `partial`, the bytes are the start of a
 * longer file, so a character cut at the end is not an encoding error.
 */
export function looksLikeSvg(bytes: Uint8Array, partial = false): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
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

/**
 * The browser's check of a picked file: its size against the limit, then its first bytes against
 * the signatures. Null when the file may be sent; otherwise the message the server would give.
 */
export async function imageFileProblem(
  file: Pick<Blob, 'size' | 'slice'>,
  maxBytes = DEFAULT_UPLOAD_MAX_BYTES,
): Promise<string | null> {
  if (file.size > maxBytes) return imageTooLargeMessage(maxBytes);
  const head = new Uint8Array(await file.slice(0, IMAGE_SNIFF_BYTES).arrayBuffer());
  if (binaryImageKind(head)) return null;
  return looksLikeSvg(head, file.size > IMAGE_SNIFF_BYTES) ? null : IMAGE_TYPE_MESSAGE;
}
