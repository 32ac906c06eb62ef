/**
 * Renders the raster share images from their SVG sources in public/images/share/ (decision 029):
 * link previews on Facebook, X and LinkedIn ignore SVG, and schema.org's Organization logo should
 * be a raster. Run after editing an SVG: `node --import tsx scripts/render-share-images.ts`; the
 * PNGs are committed, so neither the build nor the server needs sharp for them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const shareDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/images/share');

/** Source SVG → PNG, at the size each consumer expects (Open Graph: 1200×630; logo: square). */
const IMAGES = [
  { source: 'share.svg', output: 'boostly-share.png', width: 1200, height: 630 },
  { source: 'logo.svg', output: 'boostly-logo.png', width: 512, height: 512 },
] as const;

for (const image of IMAGES) {
  const info = await sharp(path.join(shareDir, image.source), { density: 300 })
    .resize(image.width, image.height)
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toFile(path.join(shareDir, image.output));
  console.log(`${image.output}: ${info.width}×${info.height}, ${info.size} bytes`);
}
