/**
 * Renders the course images (docs/decisions/027-course-catalogue.md): for each of the eight
 * courses a main image (16:9, cards and the course page; its 2x file is the Open Graph image), a
 * side image (4:5) and an instructor avatar (square), each at 1x and 2x, as WebP under
 * public/images/courses/. The art is SVG written here: flat shapes in the brand violet with one
 * accent colour per course and a motif for its subject, no text (fonts differ between machines).
 *
 * Run after changing the art or the sizes: `node --import tsx scripts/make-course-images.ts`.
 * The files are committed, so neither the build nor the server needs sharp for them; the unit
 * test tests/unit/courses.test.ts checks every file exists at its size.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { COURSE_SLUGS, type CourseSlug } from '../core/courses/catalogue.ts';
import {
  COURSE_IMAGE_DENSITIES,
  COURSE_IMAGE_SIZES,
  type CourseImageSlot,
  courseImagePath,
} from '../core/courses/images.ts';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

/** Brand tokens (app/app.css) and one accent per course; text never sits on these, so contrast is moot. */
const BRAND = {
  900: '#4c1d95',
  800: '#5b21b6',
  700: '#6d28d9',
  600: '#7c3aed',
  500: '#8b5cf6',
  200: '#ddd6fe',
  50: '#f5f3ff',
};

interface Art {
  accent: string;
  /** The subject motif, drawn in a 200×200 box; `ink` is the main stroke colour. */
  motif: (ink: string, accent: string) => string;
}

const ART: Record<CourseSlug, Art> = {
  // A small neural network: three layers of nodes joined by lines.
  'ai-for-beginners': {
    accent: '#22d3ee',
    motif: (ink, accent) => {
      const layers = [
        [50, 100, 150],
        [35, 80, 120, 165],
        [70, 130],
      ];
      const xs = [30, 100, 170];
      const lines: string[] = [];
      layers
        .slice(0, -1)
        .forEach((layer, i) =>
          layer.forEach((y) =>
            (layers[i + 1] ?? []).forEach((y2) =>
              lines.push(`<line x1="${xs[i]}" y1="${y}" x2="${xs[i + 1]}" y2="${y2}" />`),
            ),
          ),
        );
      const nodes = layers.flatMap((layer, i) =>
        layer.map((y) => `<circle cx="${xs[i]}" cy="${y}" r="13" fill="${i === 1 ? accent : ink}" />`),
      );
      return `<g stroke="${ink}" stroke-width="4" stroke-opacity="0.7">${lines.join('')}</g>${nodes.join('')}`;
    },
  },
  // A Gantt chart: staggered bars with a milestone diamond.
  'project-management': {
    accent: '#fbbf24',
    motif: (ink, accent) =>
      [
        [20, 30, 70],
        [60, 70, 80],
        [100, 110, 60],
        [130, 150, 50],
      ]
        .map(
          ([x, y, w], i) =>
            `<rect x="${x}" y="${y}" width="${w}" height="22" rx="6" fill="${i === 2 ? accent : ink}" />`,
        )
        .join('') +
      `<path d="M20 180 H185" stroke="${ink}" stroke-width="4" stroke-linecap="round" />` +
      `<path d="M180 150 l12 12 -12 12 -12 -12z" fill="${accent}" />`,
  },
  // A shield with a keyhole.
  cybersecurity: {
    accent: '#34d399',
    motif: (ink, accent) =>
      `<path d="M100 15 L170 42 V95 C170 140 140 170 100 188 C60 170 30 140 30 95 V42 Z" fill="${ink}" />` +
      `<path d="M100 35 L152 55 V96 C152 130 130 153 100 168 Z" fill="${accent}" opacity="0.85" />` +
      `<circle cx="100" cy="92" r="16" fill="${BRAND[900]}" /><rect x="93" y="100" width="14" height="32" rx="5" fill="${BRAND[900]}" />`,
  },
  // Two speech bubbles, one answering the other.
  'english-for-career-development': {
    accent: '#f472b6',
    motif: (ink, accent) =>
      `<path d="M20 30 h110 a14 14 0 0 1 14 14 v50 a14 14 0 0 1 -14 14 h-70 l-25 22 v-22 h-15 a14 14 0 0 1 -14 -14 v-50 a14 14 0 0 1 14 -14z" fill="${ink}" />` +
      `<path d="M80 95 h90 a12 12 0 0 1 12 12 v42 a12 12 0 0 1 -12 12 h-10 v20 l-22 -20 h-58 a12 12 0 0 1 -12 -12 v-42 a12 12 0 0 1 12 -12z" fill="${accent}" />` +
      [50, 75, 100].map((x) => `<circle cx="${x}" cy="69" r="7" fill="${BRAND[700]}" />`).join('') +
      `<rect x="90" y="120" width="70" height="8" rx="4" fill="${BRAND[900]}" opacity="0.6" /><rect x="90" y="138" width="45" height="8" rx="4" fill="${BRAND[900]}" opacity="0.6" />`,
  },
  // A bar chart with a trend line through scattered points.
  'ibm-data-science': {
    accent: '#60a5fa',
    motif: (ink, accent) =>
      [
        [30, 110],
        [65, 80],
        [100, 95],
        [135, 55],
      ]
        .map(([x, y]) => `<rect x="${x}" y="${y}" width="26" height="${180 - (y ?? 0)}" rx="5" fill="${ink}" />`)
        .join('') +
      `<path d="M25 150 L170 30" stroke="${accent}" stroke-width="6" stroke-linecap="round" />` +
      [
        [40, 140],
        [78, 115],
        [112, 96],
        [150, 58],
        [170, 44],
      ]
        .map(
          ([x, y]) => `<circle cx="${x}" cy="${y}" r="8" fill="${accent}" stroke="${BRAND[900]}" stroke-width="3" />`,
        )
        .join('') +
      `<path d="M20 182 H185" stroke="${ink}" stroke-width="4" stroke-linecap="round" />`,
  },
  // A cloud feeding a pipeline of three stages.
  'google-cloud-data-engineer': {
    accent: '#4ade80',
    motif: (ink, accent) =>
      `<path d="M55 95 a30 30 0 0 1 8 -58 a42 42 0 0 1 78 10 a26 26 0 0 1 4 48 z" fill="${ink}" />` +
      `<path d="M100 95 V120" stroke="${ink}" stroke-width="5" />` +
      `<path d="M40 135 H160" stroke="${ink}" stroke-width="5" stroke-linecap="round" />` +
      [40, 100, 160]
        .map(
          (x) =>
            `<path d="M${x} 135 V150" stroke="${ink}" stroke-width="5" /><rect x="${x - 22}" y="150" width="44" height="32" rx="8" fill="${accent}" />`,
        )
        .join(''),
  },
  // A flag on a summit, with a path leading up.
  'leadership-skills': {
    accent: '#fb923c',
    motif: (ink, accent) =>
      `<path d="M10 185 L80 80 L110 120 L135 90 L195 185 Z" fill="${ink}" />` +
      `<path d="M80 80 V25" stroke="${BRAND[50]}" stroke-width="5" stroke-linecap="round" />` +
      `<path d="M82 27 L125 40 L82 55 Z" fill="${accent}" />` +
      `<path d="M45 185 Q70 150 60 135 T80 95" stroke="${accent}" stroke-width="5" fill="none" stroke-dasharray="8 8" stroke-linecap="round" />`,
  },
  // A three-column board with cards, one card in the accent colour.
  'agile-jira': {
    accent: '#38bdf8',
    motif: (ink, accent) =>
      [20, 78, 136]
        .map(
          (x, column) =>
            `<rect x="${x}" y="20" width="48" height="165" rx="8" fill="${ink}" opacity="0.35" />` +
            Array.from({ length: 3 - column }, (_, row) => {
              const fill = column === 1 && row === 0 ? accent : ink;
              return `<rect x="${x + 6}" y="${32 + row * 44}" width="36" height="34" rx="5" fill="${fill}" />`;
            }).join(''),
        )
        .join('') + `<rect x="142" y="120" width="36" height="34" rx="5" fill="${accent}" />`,
  },
};

/** The decorative background shared by the main and side images. */
function backdrop(width: number, height: number, accent: string): string {
  return `
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${BRAND[800]}" />
      <stop offset="1" stop-color="${BRAND[600]}" />
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)" />
  <circle cx="${width * 0.12}" cy="${height * 0.15}" r="${height * 0.35}" fill="${BRAND[500]}" opacity="0.35" />
  <circle cx="${width * 0.95}" cy="${height * 0.95}" r="${height * 0.45}" fill="${BRAND[900]}" opacity="0.35" />
  <circle cx="${width * 0.88}" cy="${height * 0.12}" r="${height * 0.05}" fill="${accent}" opacity="0.8" />`;
}

function mainSvg(art: Art): string {
  const { width, height } = COURSE_IMAGE_SIZES.main;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">
  ${backdrop(width, height, art.accent)}
  <rect x="60" y="90" width="180" height="16" rx="8" fill="${BRAND[50]}" opacity="0.9" />
  <rect x="60" y="122" width="130" height="16" rx="8" fill="${BRAND[200]}" opacity="0.7" />
  <rect x="60" y="170" width="90" height="36" rx="18" fill="${art.accent}" />
  <g transform="translate(340 40) scale(1.4)">${art.motif(BRAND[50], art.accent)}</g>
</svg>`;
}

function sideSvg(art: Art): string {
  const { width, height } = COURSE_IMAGE_SIZES.side;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">
  ${backdrop(width, height, art.accent)}
  <circle cx="${width / 2}" cy="${height * 0.45}" r="150" fill="${BRAND[50]}" opacity="0.12" />
  <g transform="translate(60 85) scale(1.4)">${art.motif(BRAND[50], art.accent)}</g>
  <rect x="60" y="420" width="280" height="14" rx="7" fill="${BRAND[50]}" opacity="0.8" />
  <rect x="110" y="448" width="180" height="14" rx="7" fill="${BRAND[200]}" opacity="0.6" />
</svg>`;
}

/** A team avatar: the course accent behind a neutral head-and-shoulders figure (a team, not a person). */
function avatarSvg(art: Art): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <circle cx="32" cy="32" r="32" fill="${BRAND[700]}" />
  <circle cx="32" cy="32" r="27" fill="${art.accent}" opacity="0.9" />
  <circle cx="21" cy="27" r="6" fill="${BRAND[800]}" opacity="0.55" /><path d="M10 48 a11 11 0 0 1 22 0 z" fill="${BRAND[800]}" opacity="0.55" />
  <circle cx="43" cy="27" r="6" fill="${BRAND[800]}" opacity="0.55" /><path d="M32 48 a11 11 0 0 1 22 0 z" fill="${BRAND[800]}" opacity="0.55" />
  <circle cx="32" cy="24" r="8" fill="${BRAND[900]}" /><path d="M17 54 a15 15 0 0 1 30 0 z" fill="${BRAND[900]}" />
</svg>`;
}

const SVG_FOR_SLOT: Record<CourseImageSlot, (art: Art) => string> = {
  main: mainSvg,
  side: sideSvg,
  avatar: avatarSvg,
};

await mkdir(path.join(publicDir, 'images/courses'), { recursive: true });
let totalBytes = 0;
for (const slug of COURSE_SLUGS) {
  for (const slot of Object.keys(SVG_FOR_SLOT) as CourseImageSlot[]) {
    const svg = Buffer.from(SVG_FOR_SLOT[slot](ART[slug]));
    for (const density of COURSE_IMAGE_DENSITIES) {
      const { width, height } = COURSE_IMAGE_SIZES[slot];
      const file = path.join(publicDir, courseImagePath(slug, slot, density));
      // Rendered from the vector at the target size (density scales the SVG's 72 dpi), so 2x is sharp, not upscaled.
      const info = await sharp(svg, { density: 72 * density })
        .resize(width * density, height * density)
        .webp({ quality: 80, effort: 6 })
        .toFile(file);
      totalBytes += info.size;
      console.log(`${path.relative(publicDir, file)}: ${info.width}×${info.height}, ${info.size} bytes`);
    }
  }
}
console.log(`total: ${totalBytes} bytes`);
