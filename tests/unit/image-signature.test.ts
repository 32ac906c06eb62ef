import { describe, expect, it } from 'vitest';
import { imageKindOfHead } from '../../core/uploads/image-signature.ts';

/** The head check the admin's browser runs on a picked file (and the server before decoding). */
describe('imageKindOfHead', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  const text = (value: string) => new TextEncoder().encode(value);

  it('names jpg, png, webp and svg by their first bytes', () => {
    expect(imageKindOfHead(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(imageKindOfHead(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(imageKindOfHead(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('webp');
    expect(imageKindOfHead(text('\uFEFF  <?xml version="1.0"?><svg/>'))).toBe('svg');
  });

  it('refuses a text file renamed .png, a PDF, a RIFF that is not WebP and binary junk', () => {
    expect(imageKindOfHead(text('this is not an image, only text named cover.png'))).toBeNull();
    expect(imageKindOfHead(text('%PDF-1.7'))).toBeNull();
    expect(imageKindOfHead(text('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toBeNull();
    expect(imageKindOfHead(bytes(0x3c, 0x00, 0x73))).toBeNull();
    expect(imageKindOfHead(bytes())).toBeNull();
  });
});
