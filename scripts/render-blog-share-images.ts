/**
 * Renders the blog's share images (decision 020): every SVG illustration in public/images/blog/
 * gets a 1200×675 PNG next to it, which the posts' Open Graph and Twitter tags and their JSON-LD
 * name (core/blog/share-image.ts). Facebook, X and LinkedIn ignore SVG in link previews; the
 * pages keep showing the SVG, which is sharper and smaller. Run after adding or editing an
 * illustration: `node --import tsx scripts/render-blog-share-images.ts`. The PNGs are committed,
 * so neither the build nor the server needs to render them; tests/integration/blog-pages.test.ts
 * checks that every seeded post has one that matches its SVG.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH } from '../core/blog/share-image.ts';

const blogImages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/images/blog');

for (const name of (await readdir(blogImages)).filter((file) => file.endsWith('.svg')).sort()) {
  const output = name.replace(/\.svg$/, '.png');
  const info = await sharp(path.join(blogImages, name), { density: 216 })
    .resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, { fit: 'cover' })
    .png({ compressionLevel: 9, palette: true, quality: 95, dither: 0.5 })
    .toFile(path.join(blogImages, output));
  console.log(`${output}: ${info.width}×${info.height}, ${info.size} bytes`);
}
