/**
 * The first bytes of each image type the store takes (jpg, png, webp, svg), with no dependencies:
 * the admin's browser reads a picked file's head with it and refuses a non-image at once, and the
 * server's upload check (./images.ts) passes the same gate before decoding, so both agree on what
 * is not an image. The server still decides by decoding the whole file.
 */

/** How many leading bytes the check reads. */
export const IMAGE_HEAD_BYTES = 512;

const startsWith = (head: Uint8Array, signature: readonly number[], at = 0) =>
  head.length >= at + signature.length && signature.every((byte, index) => head[at + index] === byte);

const JPEG = [0xff, 0xd8, 0xff] as const;
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const RIFF = [0x52, 0x49, 0x46, 0x46] as const;
const WEBP = [0x57, 0x45, 0x42, 0x50] as const;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

export type ImageHeadKind = 'jpeg' | 'png' | 'webp' | 'svg';

/**
 * The image type these leading bytes can start, or null for none. SVG is text: its head may only
 * be markup (an optional BOM and white space, then `<`), with no NUL bytes; whether it really is
 * an SVG is for the server's full check.
 */
export function imageKindOfHead(head: Uint8Array): ImageHeadKind | null {
  if (startsWith(head, JPEG)) return 'jpeg';
  if (startsWith(head, PNG)) return 'png';
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return 'webp';
  if (head.includes(0)) return null;
  let index = startsWith(head, UTF8_BOM) ? UTF8_BOM.length : 0;
  // Space, tab, line feed, carriage return.
  while (index < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[index] ?? -1)) index += 1;
  return head[index] === 0x3c ? 'svg' : null;
}
