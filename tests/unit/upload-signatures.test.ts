import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { storeUploadedImage } from '../../core/uploads/images.ts';
import {
  IMAGE_TYPE_MESSAGE,
  binaryImageKind,
  imageFileProblem,
  imageTooLargeMessage,
  looksLikeSvg,
} from '../../core/uploads/signatures.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('image signatures shared by the browser and the server', () => {
  it('names each accepted binary kind by its first bytes', async () => {
    const base = sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } });
    expect(binaryImageKind(await base.clone().png().toBuffer())).toBe('png');
    expect(binaryImageKind(await base.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(binaryImageKind(await base.clone().webp().toBuffer())).toBe('webp');
    expect(binaryImageKind(bytes('GIF89a'))).toBeNull();
    expect(binaryImageKind(bytes('thumbnail'))).toBeNull();
    expect(binaryImageKind(new Uint8Array([0x89, 0x50]))).toBeNull();
  });

  it('knows an SVG by its root element, also from the start of a long file cut mid-character', () => {
    expect(looksLikeSvg(bytes('<?xml version="1.0"?><!-- x --><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(true);
    expect(looksLikeSvg(bytes('<html><svg></svg></html>'))).toBe(false);
    expect(looksLikeSvg(bytes('<!DOCTYPE svg [<!ENTITY a "b">]><svg/>'))).toBe(false);
    const cut = bytes('<svg xmlns="http://www.w3.org/2000/svg"><text>é</text></svg>');
    const end = cut.indexOf(0xc3) + 1;
    expect(looksLikeSvg(cut.slice(0, end), true)).toBe(true);
    expect(looksLikeSvg(cut.slice(0, end), false)).toBe(false);
  });

  it('a picked file: text named .png is refused by its content, an oversized one by its size', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    expect(await imageFileProblem(new Blob([png]))).toBeNull();
    expect(await imageFileProblem(new Blob(['these are notes, not a picture']))).toBe(IMAGE_TYPE_MESSAGE);
    expect(await imageFileProblem(new Blob([png, new Uint8Array(2048)]), 1024)).toBe(imageTooLargeMessage(1024));
    expect(imageTooLargeMessage(5 * 1024 * 1024)).toBe('The image is too large: the limit is 5 MB.');
  });

  it('the server refuses what the browser refuses: a file with only a PNG chunk but no PNG signature', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const headless = Buffer.concat([Buffer.from('notes'), png]);
    expect(await imageFileProblem(new Blob([headless]))).toBe(IMAGE_TYPE_MESSAGE);
    const stored = await storeUploadedImage('/tmp/never-written', headless);
    expect(stored).toEqual({ ok: false, status: 400, message: IMAGE_TYPE_MESSAGE });
  });
});
