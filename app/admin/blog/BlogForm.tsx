/**
 * The add and edit form of a blog post (spec "Admin blog add and edit forms", sections 4, 8, 9):
 * title (required), slug (suggested from the title until edited; kept when a published post's
 * title changes), cover image with preview, category (pick or type a new one), and the body in
 * the Tiptap editor, which is loaded lazily: its code is fetched only when this form is shown.
 *
 * The form's state is a pure reducer (./blog-form-state.ts) and its messages are the store's form
 * style (app/components/use-form-check.ts, decision 052): the banner clears on any edit, a field's
 * message on an edit of that field; the server's refusals show under their fields. Leaving with unsaved changes asks first (in-app navigation through
 * React Router's blocker, closing or reloading the tab through `beforeunload`).
 */
import { type FormEvent, Suspense, lazy, useEffect, useId, useReducer, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { BlogCategory, BlogPost } from '../../../core/blog/contracts.ts';
import type { FormCheck } from '../../../core/form-check.ts';
import { ApiError, isAbort, messageOf } from '../../api/client.ts';
import { useFormCheck } from '../../components/use-form-check.ts';
import { ButtonSpinner } from '../orders.tsx';
import { isUnauthorized } from '../token.ts';
import { createBlogPost, listBlogCategories, updateBlogPost } from './api.ts';
import {
  type BlogFields,
  blogFormReducer,
  initialBlogFormState,
  isDirty,
  slugOf,
  slugToSend,
} from './blog-form-state.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { postStatusOf, postStatusWords } from './post-status.ts';
import { imageFileProblem } from '../../../core/uploads/signatures.ts';
import { IMAGE_ACCEPT, INVALID_IMAGE_MESSAGE, isAllowedImageFile, slugFromTitle } from './editor-helpers.ts';

const BlogEditor = lazy(() => import('./BlogEditor.tsx'));

/** Spec section 8. */
export const BLOG_FORM_MESSAGES = {
  titleRequired: 'Title is required',
  added: 'Blog added successfully',
  updateFailed: 'An error occurred while updating.',
  fetchFailed: 'An error occurred while fetching data.',
} as const;

/** The "Publish at" field for a stored publish time: its time when still ahead, else empty. */
function scheduledInput(publishedAt: string | null): string {
  return publishedAt && postStatusOf(publishedAt) === 'scheduled' ? localDateTime(publishedAt) : '';
}

/** An ISO time as a `datetime-local` input shows it, in the owner's own time zone. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export interface BlogFormProps {
  /** The stored post when editing; absent when adding. */
  post?: BlogPost | undefined;
  /** After an update that changed the post's address: the page moves to it. */
  onSlugChanged?: ((slug: string) => void) | undefined;
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

const BLOG_FORM_FIELDS = ['title', 'image'] as const;
type BlogFormField = (typeof BLOG_FORM_FIELDS)[number];

/** The form's own check: a title (the server's rule; its other checks answer per field). */
function checkBlogForm(values: Record<BlogFormField, string>): FormCheck<BlogFormField, { title: string }> {
  const title = values.title.trim();
  return title ? { ok: true, value: { title } } : { ok: false, errors: { title: BLOG_FORM_MESSAGES.titleRequired } };
}

export function BlogForm({ post, onSlugChanged }: BlogFormProps) {
  const ids = useId();
  const editing = post !== undefined;
  const [state, dispatch] = useReducer(blogFormReducer, post, initialBlogFormState);
  const { fields, saving, banner, image, imagePreview, removeImage, storedImage } = state;
  /** Messages clear on an edit of their field (spec section 4) and come back with the next save. */
  const check = useFormCheck({
    fields: BLOG_FORM_FIELDS,
    check: checkBlogForm,
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const [categories, setCategories] = useState<BlogCategory[]>([]);
  /** The stored publish time, as of the last load or save: the status words and buttons follow it. */
  const [publishedAt, setPublishedAt] = useState(post?.publishedAt ?? null);
  // A scheduled post shows its time; a draft or a live post starts empty (publish at once).
  const [publishAt, setPublishAt] = useState(() => scheduledInput(post?.publishedAt ?? null));
  const fileInput = useRef<HTMLInputElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);

  const slug = slugOf(state);
  const dirty = isDirty(state);
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

  const edit = (change: Partial<BlogFields>) => {
    leavingAfterSave.current = false;
    dispatch({ type: 'edited', change });
  };
  const emptyFileInput = () => {
    if (fileInput.current) fileInput.current.value = '';
  };

  const refuseImage = (message: string) => {
    // Spec section 5: an invalid file clears the selection and the preview.
    emptyFileInput();
    dispatch({ type: 'imageRefused' });
    check.refuse({ image: message });
  };

  const chooseImage = async (file: File | null) => {
    leavingAfterSave.current = false;
    check.clear((field) => field === 'image');
    if (file && !isAllowedImageFile(file)) {
      refuseImage(INVALID_IMAGE_MESSAGE);
      return;
    }
    // A file named .png may be anything: its first bytes decide, with the server's own table, so
    // no broken preview shows and the owner hears now rather than on Publish.
    const problem = file ? await imageFileProblem(file) : null;
    if (problem) {
      refuseImage(problem);
      return;
    }
    dispatch({ type: 'imageChosen', file });
    if (!file) return;
    // A data: URL, not a blob: one: the store's Content-Security-Policy allows `img-src 'self' data:`.
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') dispatch({ type: 'previewRead', file, url: reader.result });
    };
    reader.readAsDataURL(file);
  };

  const clearImage = () => {
    leavingAfterSave.current = false;
    emptyFileInput();
    check.clear((field) => field === 'image');
    dispatch({ type: 'imageCleared' });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    // Which button sent the form: "Save draft" keeps the post from the public.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const status: 'draft' | 'published' = submitter?.getAttribute('value') === 'draft' ? 'draft' : 'published';
    const checked = check.submit(event.currentTarget);
    if (!checked) return;
    const payload = {
      status,
      publishAt: status === 'published' && publishAt ? new Date(publishAt).toISOString() : undefined,
      title: checked.title,
      slug: slugToSend(state, editing),
      category: fields.category.trim(),
      description: fields.description,
      image,
      removeImage,
    };
    dispatch({ type: 'saving' });
    try {
      if (!editing) {
        const reply = await createBlogPost(payload);
        emptyFileInput();
        setPublishAt('');
        dispatch({ type: 'added', message: reply.message || BLOG_FORM_MESSAGES.added });
      } else {
        const reply = await updateBlogPost(state.currentSlug, payload);
        const updated = reply.data;
        emptyFileInput();
        setPublishedAt(updated.publishedAt);
        setPublishAt(scheduledInput(updated.publishedAt));
        dispatch({ type: 'updated', post: updated, message: reply.message });
        if (updated.slug !== state.currentSlug) {
          // Not dirty any more: the blocker must not stop the move to the new address.
          leavingAfterSave.current = true;
          onSlugChanged?.(updated.slug);
        }
      }
    } catch (error) {
      if (isUnauthorized(error)) {
        // The admin is sent to log in again: nothing to say here.
        dispatch({ type: 'interrupted' });
        return;
      }
      const message =
        error instanceof ApiError && error.reply !== null
          ? error.message
          : editing
            ? BLOG_FORM_MESSAGES.updateFailed
            : messageOf(error);
      let imageRefused = false;
      if (error instanceof ApiError) {
        // The server's refusals under their fields; a title refusal without a field is still the title's.
        const titleProblem =
          error.fieldError('title') ?? (message === BLOG_FORM_MESSAGES.titleRequired ? message : undefined);
        if (titleProblem) check.refuse({ title: titleProblem });
        if (message === INVALID_IMAGE_MESSAGE || error.fieldError('image')) {
          emptyFileInput();
          imageRefused = true;
          check.refuse({ image: error.fieldError('image') ?? message });
        }
      }
      dispatch({ type: 'failed', message: message || BLOG_FORM_MESSAGES.updateFailed, imageRefused });
    }
  };

  const titleError = check.errorOf('title');
  const imageError = check.errorOf('image');

  // Announce the outcome where the admin's eyes are: the banner at the top of the form.
  useEffect(() => {
    if (banner) bannerRef.current?.scrollIntoView({ block: 'nearest' });
  }, [banner]);

  const preview = imagePreview ?? (removeImage ? null : storedImage || null);
  const live = editing && postStatusOf(publishedAt) === 'published';

  return (
    <>
      <form
        onSubmit={(event) => void submit(event)}
        onInput={check.onInput}
        noValidate
        aria-busy={saving}
        className="max-w-4xl space-y-6"
      >
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
            id={`${ids}-title`}
            name="title"
            type="text"
            required
            aria-required="true"
            maxLength={200}
            value={fields.title}
            onChange={(event) => edit({ title: event.target.value })}
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
                leavingAfterSave.current = false;
                dispatch({ type: 'slugTyped', slug: event.target.value.toLowerCase().replace(/\s+/g, '-') });
              }}
              onBlur={() => {
                if (state.slugTouched) edit({ slug: slugFromTitle(fields.slug) });
              }}
              aria-describedby={`${ids}-slug-hint`}
              className={`${fieldClass} rounded-l-none`}
            />
          </div>
          <p id={`${ids}-slug-hint`} className={hintClass}>
            {editing
              ? 'The address of this published post. It stays the same when you change the title, so links to the post keep working; change it here only if you must.'
              : state.slugTouched
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
                onChange={(event) => void chooseImage(event.target.files?.[0] ?? null)}
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
              key={state.editorKey}
              initialHtml={state.saved.description}
              labelledBy={`${ids}-description`}
              onChange={(description) => edit({ description })}
            />
          </Suspense>
        </div>

        <div>
          <label htmlFor={`${ids}-publish-at`} className={labelClass}>
            Publish at <span className="font-normal text-gray-700">(optional)</span>
          </label>
          <input
            id={`${ids}-publish-at`}
            type="datetime-local"
            value={publishAt}
            onChange={(event) => setPublishAt(event.target.value)}
            aria-describedby={`${ids}-publish-at-hint`}
            className={`${fieldClass} max-w-xs`}
          />
          <p id={`${ids}-publish-at-hint`} className={hintClass}>
            {editing ? <span data-testid="blog-post-status">{`${postStatusWords(publishedAt)}. `}</span> : null}
            Leave empty to publish at once; a later time schedules the post, which goes live then on its own. Drafts and
            scheduled posts are hidden from visitors.
          </p>
        </div>

        <div className="flex flex-wrap items-center gap-3 border-t border-gray-200 pt-6">
          <button
            type="submit"
            name="intent"
            value="draft"
            disabled={saving}
            className="inline-flex items-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-6 py-2.5 font-semibold text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
          >
            {live ? 'Unpublish to draft' : 'Save draft'}
          </button>
          <button
            type="submit"
            name="intent"
            value="publish"
            disabled={saving}
            className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-6 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
          >
            {saving ? <ButtonSpinner /> : null}
            {saving ? 'Saving…' : live ? 'Update post' : publishAt ? 'Schedule post' : 'Publish post'}
          </button>
          {editing ? (
            // The saved post as the site will show it, in a tab of its own (the form stays as typed).
            <Link
              to={`/admin/blog/${encodeURIComponent(state.currentSlug)}/preview`}
              target="_blank"
              data-testid="blog-preview-link"
              className="inline-flex items-center gap-2 rounded-xl px-4 py-2.5 font-semibold text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              Preview<span className="sr-only"> the saved post (opens in a new tab)</span>
            </Link>
          ) : null}
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
