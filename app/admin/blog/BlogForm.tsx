/**
 * The add and edit form of a blog post (spec "Admin blog add and edit forms", sections 4, 8, 9):
 * title (required), slug (suggested from the title until edited; kept when a published post's
 * title changes), cover image with preview, category (pick or type a new one), and the body in
 * the Tiptap editor, which is loaded lazily: its code is fetched only when this form is shown.
 *
 * Messages clear on any edit; leaving with unsaved changes asks first (in-app navigation through
 * React Router's blocker, closing or reloading the tab through `beforeunload`).
 */
import { type FormEvent, Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import type { BlogCategory, BlogPost } from '../../../core/blog/contracts.ts';
import { ApiError, isAbort, messageOf } from '../../api/client.ts';
import { ButtonSpinner } from '../orders.tsx';
import { isUnauthorized } from '../token.ts';
import { createBlogPost, listBlogCategories, updateBlogPost } from './api.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { IMAGE_ACCEPT, INVALID_IMAGE_MESSAGE, isAllowedImageFile, slugFromTitle } from './editor-helpers.ts';

const BlogEditor = lazy(() => import('./BlogEditor.tsx'));

/** Spec section 8. */
export const BLOG_FORM_MESSAGES = {
  titleRequired: 'Title is required',
  added: 'Blog added successfully',
  updateFailed: 'An error occurred while updating.',
  fetchFailed: 'An error occurred while fetching data.',
} as const;

interface Fields {
  title: string;
  slug: string;
  category: string;
  description: string;
}

const EMPTY: Fields = { title: '', slug: '', category: '', description: '' };

type Banner = { kind: 'success' | 'error'; message: string } | null;

export interface BlogFormProps {
  /** The stored post when editing; absent when adding. */
  post?: BlogPost | undefined;
  /** After an update that changed the post's address: the page moves to it. */
  onSlugChanged?: ((slug: string) => void) | undefined;
}

function fieldsOf(post: BlogPost | undefined): Fields {
  if (!post) return EMPTY;
  return { title: post.title, slug: post.slug, category: post.category, description: post.description };
}

const labelClass = 'mb-1 block text-sm font-semibold text-gray-900';
const fieldClass =
  'w-full rounded-xl border-2 border-gray-300 bg-white px-3 py-2 text-gray-900 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 aria-invalid:border-red-600';
const hintClass = 'mt-1 text-xs text-gray-700';
const errorClass = 'mt-1 text-sm font-medium text-red-800';

function EditorLoading() {
  return (
    <div
      role="status"
      className="flex min-h-72 items-center justify-center gap-3 rounded-xl border-2 border-gray-300 bg-gray-50 text-sm text-gray-700"
    >
      <ButtonSpinner className="border-brand-100 border-t-brand-700" />
      Loading editor…
    </div>
  );
}

export function BlogForm({ post, onSlugChanged }: BlogFormProps) {
  const ids = useId();
  const editing = post !== undefined;
  /** What the server has: the form is "dirty" when it differs. */
  const [saved, setSaved] = useState<Fields>(() => fieldsOf(post));
  const [fields, setFields] = useState<Fields>(() => fieldsOf(post));
  /** Adding: the slug follows the title until the admin types in the slug box. */
  const [slugTouched, setSlugTouched] = useState(editing);
  /** The post's address on the server (changes after an update that renamed it). */
  const [currentSlug, setCurrentSlug] = useState(post?.slug ?? '');
  const [storedImage, setStoredImage] = useState(post?.image ?? '');
  const [image, setImage] = useState<File | null>(null);
  const [imagePreview, setImagePreview] = useState<string | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [banner, setBanner] = useState<Banner>(null);
  const [saving, setSaving] = useState(false);
  /** Remounts the editor with the saved body (after "add", the empty one). */
  const [editorKey, setEditorKey] = useState(0);
  const [categories, setCategories] = useState<BlogCategory[]>([]);
  const titleInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);

  const slug = slugTouched ? fields.slug : slugFromTitle(fields.title);
  const dirty =
    fields.title !== saved.title ||
    (slugTouched && fields.slug !== saved.slug) ||
    fields.category !== saved.category ||
    fields.description !== saved.description ||
    image !== null ||
    removeImage;
  /** Set by a save that moves to the post's new address: that navigation must not ask. */
  const leavingAfterSave = useRef(false);

  // The existing categories, to pick from (a new name is created by the server).
  useEffect(() => {
    const controller = new AbortController();
    listBlogCategories(controller.signal).then(
      (list) => setCategories(list),
      (error: unknown) => {
        if (!isAbort(error) && !isUnauthorized(error)) console.error('GET /api/blog/categories failed', error);
      },
    );
    return () => controller.abort();
  }, []);

  // Closing or reloading the tab with unsaved changes: the browser's own question.
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  // In-app navigation with unsaved changes: our own question.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !saving && !leavingAfterSave.current && currentLocation.pathname !== nextLocation.pathname,
  );

  const edit = (change: Partial<Fields>) => {
    leavingAfterSave.current = false;
    setFields((current) => ({ ...current, ...change }));
    setBanner(null);
  };

  const chooseImage = (file: File | null) => {
    leavingAfterSave.current = false;
    setBanner(null);
    setImageError(null);
    if (file && !isAllowedImageFile(file)) {
      // Spec section 5: an invalid file clears the selection and the preview.
      if (fileInput.current) fileInput.current.value = '';
      setImage(null);
      setImagePreview(null);
      setImageError(INVALID_IMAGE_MESSAGE);
      return;
    }
    setImage(file);
    setImagePreview(null);
    if (!file) return;
    setRemoveImage(false);
    // A data: URL, not a blob: one: the store's Content-Security-Policy allows `img-src 'self' data:`.
    const reader = new FileReader();
    reader.onload = () => {
      // Only if this file is still the chosen one when it has been read.
      if (typeof reader.result === 'string' && fileInput.current?.files?.[0] === file) setImagePreview(reader.result);
    };
    reader.readAsDataURL(file);
  };

  const clearImage = () => {
    leavingAfterSave.current = false;
    if (fileInput.current) fileInput.current.value = '';
    setImage(null);
    setImagePreview(null);
    setImageError(null);
    setBanner(null);
    if (storedImage) setRemoveImage(true);
  };

  const resetAfterAdd = () => {
    setFields(EMPTY);
    setSaved(EMPTY);
    setSlugTouched(false);
    if (fileInput.current) fileInput.current.value = '';
    setImage(null);
    setImagePreview(null);
    setRemoveImage(false);
    setEditorKey((key) => key + 1);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setBanner(null);
    const title = fields.title.trim();
    if (!title) {
      setTitleError(BLOG_FORM_MESSAGES.titleRequired);
      titleInput.current?.focus();
      return;
    }
    const cleanSlug = slugFromTitle(slug);
    const sendSlug = editing
      ? cleanSlug && cleanSlug !== currentSlug
        ? cleanSlug
        : undefined
      : slugTouched
        ? cleanSlug || undefined
        : undefined;
    const payload = {
      title,
      slug: sendSlug,
      category: fields.category.trim(),
      description: fields.description,
      image,
      removeImage,
    };
    setSaving(true);
    try {
      if (!editing) {
        const reply = await createBlogPost(payload);
        resetAfterAdd();
        setBanner({ kind: 'success', message: reply.message || BLOG_FORM_MESSAGES.added });
      } else {
        const reply = await updateBlogPost(currentSlug, payload);
        const updated = reply.data;
        const next: Fields = {
          title: updated.title,
          slug: updated.slug,
          category: updated.category,
          description: fields.description,
        };
        setFields(next);
        setSaved(next);
        setStoredImage(updated.image);
        if (fileInput.current) fileInput.current.value = '';
        setImage(null);
        setImagePreview(null);
        setRemoveImage(false);
        setBanner({ kind: 'success', message: reply.message });
        if (updated.slug !== currentSlug) {
          setCurrentSlug(updated.slug);
          // Not dirty any more: the blocker must not stop the move to the new address.
          leavingAfterSave.current = true;
          onSlugChanged?.(updated.slug);
        }
      }
    } catch (error) {
      if (isUnauthorized(error)) return;
      const message =
        error instanceof ApiError && error.reply !== null
          ? error.message
          : editing
            ? BLOG_FORM_MESSAGES.updateFailed
            : messageOf(error);
      if (error instanceof ApiError) {
        const titleProblem =
          error.fieldError('title') ?? (message === BLOG_FORM_MESSAGES.titleRequired ? message : undefined);
        if (titleProblem) setTitleError(titleProblem);
        if (message === INVALID_IMAGE_MESSAGE || error.fieldError('image')) {
          if (fileInput.current) fileInput.current.value = '';
          setImage(null);
          setImagePreview(null);
          setImageError(error.fieldError('image') ?? message);
        }
      }
      setBanner({ kind: 'error', message: message || BLOG_FORM_MESSAGES.updateFailed });
    } finally {
      setSaving(false);
    }
  };

  // Announce the outcome where the admin's eyes are: the banner at the top of the form.
  useEffect(() => {
    if (banner) bannerRef.current?.scrollIntoView({ block: 'nearest' });
  }, [banner]);

  const preview = imagePreview ?? (removeImage ? null : storedImage || null);

  return (
    <>
      <form onSubmit={(event) => void submit(event)} noValidate aria-busy={saving} className="max-w-4xl space-y-6">
        <div ref={bannerRef}>
          {banner ? (
            <p
              role={banner.kind === 'error' ? 'alert' : 'status'}
              data-testid="blog-form-message"
              data-kind={banner.kind}
              className={`rounded-xl border px-4 py-3 text-sm font-medium ${
                banner.kind === 'error'
                  ? 'border-red-200 bg-red-50 text-red-800'
                  : 'border-green-200 bg-green-50 text-green-900'
              }`}
            >
              {banner.message}
            </p>
          ) : null}
        </div>

        <div>
          <label htmlFor={`${ids}-title`} className={labelClass}>
            Title <span className="text-red-800">*</span>
          </label>
          <input
            ref={titleInput}
            id={`${ids}-title`}
            name="title"
            type="text"
            required
            aria-required="true"
            maxLength={200}
            value={fields.title}
            onChange={(event) => {
              edit({ title: event.target.value });
              setTitleError(null);
            }}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? `${ids}-title-error` : undefined}
            className={fieldClass}
          />
          {titleError ? (
            <p id={`${ids}-title-error`} className={errorClass} data-testid="title-error">
              {titleError}
            </p>
          ) : null}
        </div>

        <div>
          <label htmlFor={`${ids}-slug`} className={labelClass}>
            Slug
          </label>
          <div className="flex items-stretch">
            <span className="inline-flex items-center rounded-l-xl border-2 border-r-0 border-gray-300 bg-gray-50 px-3 text-sm text-gray-700">
              /blog/
            </span>
            <input
              id={`${ids}-slug`}
              name="slug"
              type="text"
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              value={slug}
              onChange={(event) => {
                setSlugTouched(true);
                edit({ slug: event.target.value.toLowerCase().replace(/\s+/g, '-') });
              }}
              onBlur={() => {
                if (slugTouched) edit({ slug: slugFromTitle(fields.slug) });
              }}
              aria-describedby={`${ids}-slug-hint`}
              className={`${fieldClass} rounded-l-none`}
            />
          </div>
          <p id={`${ids}-slug-hint`} className={hintClass}>
            {editing
              ? 'The address of this published post. It stays the same when you change the title, so links to the post keep working; change it here only if you must.'
              : slugTouched
                ? 'The address of the post. Lowercase letters, numbers and hyphens.'
                : 'The address of the post, made from the title until you change it.'}
          </p>
        </div>

        <div>
          <label htmlFor={`${ids}-image`} className={labelClass}>
            Cover image
          </label>
          <div className="flex flex-wrap items-start gap-4">
            {preview ? (
              <img
                src={preview}
                alt={imagePreview ? 'Preview of the chosen image' : 'Current image'}
                data-testid="image-preview"
                className="h-32 w-48 rounded-xl border border-gray-200 object-cover"
              />
            ) : null}
            <div className="min-w-0 max-w-full space-y-2">
              <input
                ref={fileInput}
                id={`${ids}-image`}
                name="image"
                type="file"
                accept={IMAGE_ACCEPT}
                onChange={(event) => chooseImage(event.target.files?.[0] ?? null)}
                aria-invalid={imageError ? true : undefined}
                aria-describedby={`${ids}-image-hint${imageError ? ` ${ids}-image-error` : ''}`}
                className="block max-w-full text-sm text-gray-900 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-100 file:px-3 file:py-2 file:font-semibold file:text-brand-900 hover:file:bg-brand-200"
              />
              <p id={`${ids}-image-hint`} className={hintClass}>
                Optional. jpg, png, svg or webp.
              </p>
              {preview ? (
                <button
                  type="button"
                  onClick={clearImage}
                  className="text-sm font-semibold text-red-800 underline hover:text-red-900"
                >
                  Remove image
                </button>
              ) : null}
              {imageError ? (
                <p id={`${ids}-image-error`} role="alert" className={errorClass} data-testid="image-error">
                  {imageError}
                </p>
              ) : null}
            </div>
          </div>
        </div>

        <div>
          <label htmlFor={`${ids}-category`} className={labelClass}>
            Category
          </label>
          <input
            id={`${ids}-category`}
            name="category"
            type="text"
            list={`${ids}-categories`}
            maxLength={80}
            autoComplete="off"
            value={fields.category}
            onChange={(event) => edit({ category: event.target.value })}
            aria-describedby={`${ids}-category-hint`}
            className={`${fieldClass} max-w-md`}
          />
          <datalist id={`${ids}-categories`}>
            {categories.map((category) => (
              <option key={category.id} value={category.name} />
            ))}
          </datalist>
          <p id={`${ids}-category-hint`} className={hintClass}>
            Pick an existing category or type a new name to create it.
          </p>
        </div>

        <div>
          <span id={`${ids}-description`} className={labelClass}>
            Description
          </span>
          <Suspense fallback={<EditorLoading />}>
            <BlogEditor
              key={editorKey}
              initialHtml={saved.description}
              labelledBy={`${ids}-description`}
              onChange={(description) => edit({ description })}
            />
          </Suspense>
        </div>

        <div className="flex flex-wrap items-center gap-3 border-t border-gray-200 pt-6">
          <button
            type="submit"
            disabled={saving}
            className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-6 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
          >
            {saving ? <ButtonSpinner /> : null}
            {saving ? 'Saving…' : editing ? 'Update post' : 'Publish post'}
          </button>
          {dirty && !saving ? <span className="text-sm text-gray-700">Unsaved changes</span> : null}
        </div>
      </form>

      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        text="This post has changes that are not saved yet. If you leave now, they are lost."
        confirmLabel="Leave"
        cancelLabel="Stay"
        destructive
        testId="unsaved-dialog"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </>
  );
}
