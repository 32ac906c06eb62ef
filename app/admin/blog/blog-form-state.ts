/**
 * The blog post form's draft (spec "Admin blog add and edit forms") as a pure reducer: the fields
 * as typed and as saved, the slug that follows the title until typed in, the cover image chosen,
 * previewed or removed, the banner and the saving flag. Its messages (the title's, the image's)
 * are the form style's (app/components/use-form-check.ts, decision 052). No React:
 * tests/unit/blog-form-state.test.ts runs it.
 */
import type { BlogPost } from '../../../core/blog/contracts.ts';
import { slugFromTitle } from './editor-helpers.ts';

export interface BlogFields {
  title: string;
  slug: string;
  category: string;
  description: string;
}

export const EMPTY_BLOG_FIELDS: BlogFields = { title: '', slug: '', category: '', description: '' };

export type BlogBanner = { kind: 'success' | 'error'; message: string } | null;

export interface BlogFormState {
  /** What the server has: the form is "dirty" when it differs. */
  saved: BlogFields;
  fields: BlogFields;
  /** Adding: the slug follows the title until the admin types in the slug box. */
  slugTouched: boolean;
  /** The post's address on the server (changes after an update that renamed it). */
  currentSlug: string;
  storedImage: string;
  /** A new cover image chosen, not yet saved. */
  image: File | null;
  /** The chosen image read as a data: URL, once read. */
  imagePreview: string | null;
  /** The stored image is to be removed by the next save. */
  removeImage: boolean;
  banner: BlogBanner;
  saving: boolean;
  /** Remounts the body's editor with the saved body (after "add", the empty one). */
  editorKey: number;
}

export function initialBlogFormState(post: BlogPost | undefined): BlogFormState {
  const fields = post
    ? { title: post.title, slug: post.slug, category: post.category, description: post.description }
    : EMPTY_BLOG_FIELDS;
  return {
    saved: fields,
    fields,
    slugTouched: post !== undefined,
    currentSlug: post?.slug ?? '',
    storedImage: post?.image ?? '',
    image: null,
    imagePreview: null,
    removeImage: false,
    banner: null,
    saving: false,
    editorKey: 0,
  };
}

export type BlogFormAction =
  | { type: 'edited'; change: Partial<BlogFields> }
  | { type: 'slugTyped'; slug: string }
  /** A valid file chosen, or the choice emptied (null). */
  | { type: 'imageChosen'; file: File | null }
  /** The chosen file cannot be a cover image: the selection and the preview go. */
  | { type: 'imageRefused' }
  | { type: 'previewRead'; file: File; url: string }
  | { type: 'imageCleared' }
  | { type: 'saving' }
  | { type: 'added'; message: string }
  | { type: 'updated'; post: Pick<BlogPost, 'title' | 'slug' | 'category' | 'image'>; message: string }
  | { type: 'failed'; message: string; imageRefused: boolean }
  /** The save stopped without an answer to show (the admin is sent to log in again). */
  | { type: 'interrupted' };

const withoutChosenImage = { image: null, imagePreview: null } as const;

export function blogFormReducer(state: BlogFormState, action: BlogFormAction): BlogFormState {
  switch (action.type) {
    case 'edited':
      return { ...state, fields: { ...state.fields, ...action.change }, banner: null };
    case 'slugTyped':
      return { ...state, slugTouched: true, fields: { ...state.fields, slug: action.slug }, banner: null };
    case 'imageChosen':
      return {
        ...state,
        image: action.file,
        imagePreview: null,
        removeImage: action.file ? false : state.removeImage,
        banner: null,
      };
    case 'imageRefused':
      return { ...state, ...withoutChosenImage, banner: null };
    case 'previewRead':
      // Only if this file is still the chosen one when it has been read.
      return state.image === action.file ? { ...state, imagePreview: action.url } : state;
    case 'imageCleared':
      return {
        ...state,
        ...withoutChosenImage,
        banner: null,
        removeImage: state.storedImage ? true : state.removeImage,
      };
    case 'saving':
      return { ...state, saving: true, banner: null };
    case 'added':
      return {
        ...initialBlogFormState(undefined),
        editorKey: state.editorKey + 1,
        banner: { kind: 'success', message: action.message },
      };
    case 'updated': {
      const next: BlogFields = {
        title: action.post.title,
        slug: action.post.slug,
        category: action.post.category,
        description: state.fields.description,
      };
      return {
        ...state,
        ...withoutChosenImage,
        fields: next,
        saved: next,
        storedImage: action.post.image,
        currentSlug: action.post.slug,
        removeImage: false,
        saving: false,
        banner: { kind: 'success', message: action.message },
      };
    }
    case 'failed':
      return {
        ...state,
        ...(action.imageRefused ? withoutChosenImage : {}),
        saving: false,
        banner: { kind: 'error', message: action.message },
      };
    case 'interrupted':
      return { ...state, saving: false };
  }
}

/** The slug shown: the admin's once typed in, otherwise made from the title. */
export const slugOf = (state: BlogFormState) =>
  state.slugTouched ? state.fields.slug : slugFromTitle(state.fields.title);

export function isDirty({ fields, saved, slugTouched, image, removeImage }: BlogFormState): boolean {
  return (
    fields.title !== saved.title ||
    (slugTouched && fields.slug !== saved.slug) ||
    fields.category !== saved.category ||
    fields.description !== saved.description ||
    image !== null ||
    removeImage
  );
}

/**
 * The slug a save sends: editing, only a changed one (a published post keeps its address when
 * its title changes); adding, only one the admin typed (the server makes it from the title).
 */
export function slugToSend(state: BlogFormState, editing: boolean): string | undefined {
  const cleanSlug = slugFromTitle(slugOf(state));
  if (editing) return cleanSlug && cleanSlug !== state.currentSlug ? cleanSlug : undefined;
  return state.slugTouched ? cleanSlug || undefined : undefined;
}
