/** Every image file a course's pages refer to, with its pixel size, for checking the committed files. */
import { COURSE_IMAGE_DENSITIES, COURSE_IMAGE_SIZES, courseImagePath } from '../../core/courses/images.ts';

interface CourseImageFile {
  path: string;
  width: number;
  height: number;
}

export function courseImageFiles(slug: string): CourseImageFile[] {
  return (Object.keys(COURSE_IMAGE_SIZES) as (keyof typeof COURSE_IMAGE_SIZES)[]).flatMap((slot) =>
    COURSE_IMAGE_DENSITIES.map((density) => ({
      path: courseImagePath(slug, slot, density),
      width: COURSE_IMAGE_SIZES[slot].width * density,
      height: COURSE_IMAGE_SIZES[slot].height * density,
    })),
  );
}
