/**
 * The course images: one raster file per slot and width, made by scripts/make-course-images.ts
 * from SVG art and committed under public/images/courses/. The layout shows each slot at its
 * CSS width and the browser picks the 1x or 2x file through `srcset`. Pure data and string
 * building: the pages, the script and the tests all read the sizes from here.
 */

/** The three image slots of a course (spec: mainImage, sideImage, instructorImg). */
export type CourseImageSlot = 'main' | 'side' | 'avatar';

interface CourseImageSize {
  /** CSS pixel size the layout gives the slot (the 1x file). */
  width: number;
  height: number;
}

/**
 * Slot sizes at 1x. Main 16:9 (card and course page hero; the 2x file, 1280×720, doubles as the
 * Open Graph image), side 4:5 beside the "what you will learn" text, avatar square in the Course
 * Includes box.
 */
export const COURSE_IMAGE_SIZES: Readonly<Record<CourseImageSlot, CourseImageSize>> = {
  main: { width: 640, height: 360 },
  side: { width: 400, height: 500 },
  avatar: { width: 64, height: 64 },
};

/** Pixel densities written for every slot. */
export const COURSE_IMAGE_DENSITIES = [1, 2] as const;

const COURSE_IMAGE_DIR = '/images/courses';

/** URL path of one file, e.g. `/images/courses/cybersecurity-main-1280.webp`. */
export function courseImagePath(slug: string, slot: CourseImageSlot, density: 1 | 2): string {
  return `${COURSE_IMAGE_DIR}/${slug}-${slot}-${COURSE_IMAGE_SIZES[slot].width * density}.webp`;
}

/** `src`, `srcSet`, `width` and `height` for an `<img>` in the given slot. */
export function courseImageAttributes(slug: string, slot: CourseImageSlot) {
  const { width, height } = COURSE_IMAGE_SIZES[slot];
  return {
    src: courseImagePath(slug, slot, 1),
    srcSet: COURSE_IMAGE_DENSITIES.map((d) => `${courseImagePath(slug, slot, d)} ${width * d}w`).join(', '),
    width,
    height,
  };
}
