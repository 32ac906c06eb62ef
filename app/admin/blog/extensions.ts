/**
 * The blog editor's Tiptap extensions: StarterKit (v3: paragraphs, headings, bold, italic,
 * underline, lists, links, undo) narrowed to what the server's sanitiser keeps, plus two small
 * nodes of our own — a YouTube/Vimeo player and an uploaded image — and a paste rule that turns a
 * pasted video address into a player. Loaded only with the editor (React.lazy in the admin forms).
 */
import { type Editor, type JSONContent, Extension, Node, mergeAttributes } from '@tiptap/react';
import { NodeSelection, Plugin, PluginKey, Selection, TextSelection } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import { isVideoEmbedSrc, linkTarget, videoEmbedFromUrl } from './editor-helpers.ts';

/**
 * A YouTube or Vimeo player: `<iframe src="https://www.youtube-nocookie.com/embed/ID">` or
 * `https://player.vimeo.com/video/ID`. Only those addresses are read back from stored HTML; any
 * other iframe is dropped by the editor (and by the server's sanitiser).
 */
export const VideoEmbed = Node.create({
  name: 'videoEmbed',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,

  addAttributes() {
    return {
      src: { default: null },
      title: { default: 'Embedded video' },
    };
  },

  parseHTML() {
    return [
      {
        tag: 'iframe[src]',
        getAttrs: (element) => {
          const src = element.getAttribute('src') ?? '';
          if (!isVideoEmbedSrc(src)) return false;
          return { src, title: element.getAttribute('title') || 'Embedded video' };
        },
      },
    ];
  },

  renderHTML({ HTMLAttributes }) {
    return [
      'iframe',
      mergeAttributes(HTMLAttributes, {
        width: '560',
        height: '315',
        frameborder: '0',
        allowfullscreen: 'true',
        loading: 'lazy',
      }),
    ];
  },
});

/**
 * An image in the body. The editor inserts only addresses the upload API returned
 * (`/uploads/...`); whatever else a stored post holds is the sanitiser's to judge.
 */
export const BodyImage = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,

  addAttributes() {
    return {
      src: { default: null },
      alt: { default: '' },
      width: { default: null },
      height: { default: null },
    };
  },

  parseHTML() {
    return [{ tag: 'img[src]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes(HTMLAttributes)];
  },
});

/**
 * Inserts a player or an image at the cursor and puts the cursor in the text after it. Left to
 * itself the editor selects the inserted node, and the next insertion would replace it.
 */
export function insertBlock(editor: Editor, content: JSONContent): boolean {
  return editor
    .chain()
    .focus()
    .insertContent(content)
    .command(({ tr }) => {
      if (!(tr.selection instanceof NodeSelection)) return true;
      const after = tr.selection.to;
      const next = Selection.findFrom(tr.doc.resolve(after), 1, true);
      if (next) {
        tr.setSelection(next);
      } else {
        const paragraph = tr.doc.type.schema.nodes.paragraph;
        if (paragraph) {
          tr.insert(after, paragraph.create());
          tr.setSelection(TextSelection.create(tr.doc, after + 1));
        }
      }
      return true;
    })
    .run();
}

/** A pasted YouTube/Vimeo address (alone on the clipboard) becomes a player instead of a link. */
export const VideoPaste = Extension.create({
  name: 'videoPaste',
  // Before the Link extension's own paste handling.
  priority: 1000,

  addProseMirrorPlugins() {
    const { editor } = this;
    return [
      new Plugin({
        key: new PluginKey('videoPaste'),
        props: {
          handlePaste: (_view, event) => {
            const text = event.clipboardData?.getData('text/plain') ?? '';
            const embed = videoEmbedFromUrl(text);
            if (!embed) return false;
            return insertBlock(editor, {
              type: VideoEmbed.name,
              attrs: { src: embed.src, title: providerTitle(embed.provider) },
            });
          },
        },
      }),
    ];
  },
});

export function providerTitle(provider: 'youtube' | 'vimeo'): string {
  return provider === 'youtube' ? 'YouTube video' : 'Vimeo video';
}

export const blogExtensions = [
  StarterKit.configure({
    // What the sanitiser allows and the toolbar offers; code, strike and rules are left out.
    heading: { levels: [2, 3] },
    code: false,
    codeBlock: false,
    strike: false,
    horizontalRule: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: 'https',
      protocols: ['mailto'],
      // The same rule as the link box: http(s), mailto and this site's paths only.
      isAllowedUri: (url) => linkTarget(url).ok,
      HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: null },
    },
  }),
  VideoEmbed,
  BodyImage,
  VideoPaste,
];
