/**
 * The admin blog screens' calls to the JSON API (spec section 7), all through the admin
 * client (bearer token, 401 → log-in). Posts are written as multipart forms: the cover image
 * travels as a file next to the text fields.
 */
import type { BlogCategory, BlogPost, BlogPostSummary } from '../../../core/blog/contracts.ts';
import { isAbort, messageOf } from '../../api/client.ts';
import { adminApi, isUnauthorized } from '../token.ts';

/** Spec section 9: the admin list asks for 10 posts a page. */
export const ADMIN_BLOG_PAGE_SIZE = 10;

export interface BlogListReply {
  isSuccessful: boolean;
  message: string;
  data: BlogPostSummary[];
  totalPages: number;
  count: number;
  currentPage: number;
}

export interface StoredImage {
  url: string;
  width: number | null;
  height: number | null;
  contentType: string;
}

export function listBlogPosts(query: { keyword: string; page: number }, signal?: AbortSignal): Promise<BlogListReply> {
  return adminApi.send<BlogListReply>('GET', '/api/blog', {
    query: { keyword: query.keyword || undefined, page: query.page, size: ADMIN_BLOG_PAGE_SIZE },
    signal,
  });
}

export async function fetchBlogPost(slug: string, signal?: AbortSignal): Promise<BlogPost | null> {
  const posts = await adminApi.get<BlogPost[]>(`/api/blog/${encodeURIComponent(slug)}`, { signal });
  return posts[0] ?? null;
}

/** What an admin page's clientLoader has of a post: the post, or why not in words. */
export type AdminPostLoad = { ok: true; post: BlogPost } | { ok: false; message: string; unauthorized: boolean };

/** The post by its slug for the edit form and the preview; an aborted load (a navigation away) rethrows. */
export async function loadPostForAdmin(slug: string, signal: AbortSignal): Promise<AdminPostLoad> {
  try {
    const post = await fetchBlogPost(slug, signal);
    if (!post) return { ok: false, message: 'Blog not found', unauthorized: false };
    return { ok: true, post };
  } catch (error) {
    if (isAbort(error)) throw error;
    console.error(`GET /api/blog/${slug} failed`, error);
    return { ok: false, message: messageOf(error), unauthorized: isUnauthorized(error) };
  }
}

export function listBlogCategories(signal?: AbortSignal): Promise<BlogCategory[]> {
  return adminApi.get<BlogCategory[]>('/api/blog/categories', { signal });
}

/** The form's fields as the API takes them (multipart: title, slug?, image?, removeImage?, category, description). */
export interface BlogPostFields {
  title: string;
  /** Sent only when the admin set it; otherwise the server derives it from the title. */
  slug?: string | undefined;
  category: string;
  description: string;
  /** A new cover image. */
  image?: File | null | undefined;
  /** On update: drop the current cover (and no new one was chosen). */
  removeImage?: boolean | undefined;
  /** A draft stays hidden from the public; a published post goes live at `publishAt`, or at once. */
  status?: 'draft' | 'published' | undefined;
  /** ISO-8601; empty: at once (a post already live keeps its date). */
  publishAt?: string | undefined;
}

export function blogPostFormData(fields: BlogPostFields): FormData {
  const form = new FormData();
  form.set('title', fields.title);
  if (fields.slug) form.set('slug', fields.slug);
  form.set('category', fields.category);
  form.set('description', fields.description);
  if (fields.image) form.set('image', fields.image, fields.image.name);
  else if (fields.removeImage) form.set('removeImage', 'true');
  if (fields.status) form.set('status', fields.status);
  if (fields.publishAt) form.set('publishAt', fields.publishAt);
  return form;
}

export function createBlogPost(fields: BlogPostFields): Promise<{ message: string; data: BlogPost }> {
  return adminApi.send<{ message: string; data: BlogPost }, FormData>('POST', '/api/blog', {
    body: blogPostFormData(fields),
  });
}

export function updateBlogPost(slug: string, fields: BlogPostFields): Promise<{ message: string; data: BlogPost }> {
  return adminApi.send<{ message: string; data: BlogPost }, FormData>(
    'PATCH',
    `/api/blog/${encodeURIComponent(slug)}`,
    {
      body: blogPostFormData(fields),
    },
  );
}

export function deleteBlogPost(id: number): Promise<{ message: string }> {
  return adminApi.send<{ message: string }>('DELETE', `/api/blog/${id}`);
}

/** An image for the post's body (B2's upload API): the stored address to put in `<img src>`. */
export function uploadBodyImage(file: File): Promise<StoredImage> {
  const form = new FormData();
  form.set('image', file, file.name);
  return adminApi.post<StoredImage, FormData>('/api/uploads', form);
}
