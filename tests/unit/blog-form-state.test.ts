import { describe, expect, it } from 'vitest';
import {
  type BlogFormAction,
  type BlogFormState,
  blogFormReducer,
  initialBlogFormState,
  isDirty,
  slugOf,
  slugToSend,
} from '../../app/admin/blog/blog-form-state.ts';
import type { BlogPost } from '../../core/blog/contracts.ts';

/** The blog post form's draft (app/admin/blog/blog-form-state.ts): the spec's add and edit rules. */

const POST: BlogPost = {
  id: 7,
  slug: 'grow-on-tiktok',
  title: 'Grow on TikTok',
  shortDesc: 'How to grow',
  category: 'TikTok',
  categorySlug: 'tiktok',
  image: '/uploads/blog/cover.webp',
  imageWidth: 1200,
  imageHeight: 630,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  publishedAt: '2026-11-01T10:00:00.000Z',
  description: '<p>Body</p>',
  readingMinutes: 1,
};

const run = (state: BlogFormState, ...actions: BlogFormAction[]) => actions.reduce(blogFormReducer, state);
const file = (name: string) => new File(['x'], name, { type: 'image/png' });

describe('blogFormReducer: adding', () => {
  it('makes the slug from the title until the slug is typed in, and sends only a typed one', () => {
    let state = run(initialBlogFormState(undefined), { type: 'edited', change: { title: 'Ten Tips for Reels' } });
    expect(slugOf(state)).toBe('ten-tips-for-reels');
    expect(slugToSend(state, false)).toBeUndefined();
    state = run(state, { type: 'slugTyped', slug: 'reels-tips' }, { type: 'edited', change: { title: 'Other' } });
    expect(slugOf(state)).toBe('reels-tips');
    expect(slugToSend(state, false)).toBe('reels-tips');
  });

  it('is dirty after any edit or a chosen image, and empties itself after "add", with a new editor', () => {
    const clean = initialBlogFormState(undefined);
    expect(isDirty(clean)).toBe(false);
    const cover = file('cover.png');
    const typed = run(clean, { type: 'edited', change: { category: 'News' } });
    expect(isDirty(typed)).toBe(true);
    const chosen = run(clean, { type: 'imageChosen', file: cover });
    expect(isDirty(chosen)).toBe(true);
    const added = run(chosen, { type: 'saving' }, { type: 'added', message: 'Blog added successfully' });
    expect(added).toMatchObject({ fields: clean.fields, image: null, saving: false, editorKey: 1 });
    expect(added.banner).toEqual({ kind: 'success', message: 'Blog added successfully' });
    expect(isDirty(added)).toBe(false);
  });
});

describe('blogFormReducer: editing', () => {
  it('keeps the address when the title changes; sends a slug only when it was changed', () => {
    const state = run(initialBlogFormState(POST), { type: 'edited', change: { title: 'New title' } });
    expect(slugOf(state)).toBe('grow-on-tiktok');
    expect(slugToSend(state, true)).toBeUndefined();
    expect(slugToSend(run(state, { type: 'slugTyped', slug: 'tiktok-growth' }), true)).toBe('tiktok-growth');
  });

  it('clears the banner on any edit and takes the stored post after an update', () => {
    let state = run(
      initialBlogFormState(POST),
      { type: 'saving' },
      { type: 'failed', message: 'An error occurred while updating.', imageRefused: false },
    );
    expect(state.banner).toEqual({ kind: 'error', message: 'An error occurred while updating.' });
    expect(state.saving).toBe(false);
    state = run(state, { type: 'edited', change: { title: 'Renamed' } });
    expect(state.banner).toBeNull();
    state = run(
      state,
      { type: 'saving' },
      {
        type: 'updated',
        post: { title: 'Renamed', slug: 'renamed', category: 'TikTok', image: '/uploads/blog/new.webp' },
        message: 'Updated',
      },
    );
    expect(state).toMatchObject({ currentSlug: 'renamed', storedImage: '/uploads/blog/new.webp', saving: false });
    expect(isDirty(state)).toBe(false);
  });

  it('previews only the file still chosen; removing marks the stored image for removal', () => {
    const first = file('a.png');
    const second = file('b.png');
    let state = run(
      initialBlogFormState(POST),
      { type: 'imageChosen', file: first },
      { type: 'imageChosen', file: second },
    );
    expect(run(state, { type: 'previewRead', file: first, url: 'data:a' }).imagePreview).toBeNull();
    state = run(state, { type: 'previewRead', file: second, url: 'data:b' });
    expect(state.imagePreview).toBe('data:b');
    state = run(state, { type: 'imageCleared' });
    expect(state).toMatchObject({ image: null, imagePreview: null, removeImage: true });
    expect(isDirty(state)).toBe(true);
    // A refused file goes with its preview; so does one the server refused.
    expect(run(state, { type: 'imageChosen', file: first }, { type: 'imageRefused' })).toMatchObject({ image: null });
    const refused = run(
      state,
      { type: 'imageChosen', file: first },
      { type: 'failed', message: 'Invalid image', imageRefused: true },
    );
    expect(refused).toMatchObject({ image: null, imagePreview: null });
  });
});
