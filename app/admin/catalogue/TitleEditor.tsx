/**
 * The service title's editor (decision 044): one line of rich text with bold and
 * italic, shown under the service's name on its page. The store keeps the title as inline HTML
 * (`Buy <strong>TikTok Likes</strong> and push your video further`, core/catalogue/seed/tiktok.ts),
 * so the document here is exactly one paragraph, Enter adds nothing, and what the form gets back
 * is that paragraph's inside, without the `<p>` wrapper. The server sanitises it again on save
 * (core/html `sanitizeTitleHtml`).
 *
 * Its own small module, not the blog's (whose extensions are for long bodies), loaded with
 * `React.lazy` by the service form only: Tiptap stays out of every public route.
 */
import { useEffect } from 'react';
import { EditorContent, Extension, Node, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

export interface TitleEditorProps {
  /** The stored title (inline HTML), or '' for a new service. */
  initialHtml: string;
  /** Every change, as inline HTML ('' when empty). */
  onChange: (html: string) => void;
  /** The id of the visible label ("Title"). */
  labelledBy: string;
  /** The hint's id, or the error's when there is one. */
  describedBy: string;
  invalid: boolean;
}

/** A document of exactly one paragraph: the title is one line. */
const OneLineDocument = Node.create({ name: 'doc', topNode: true, content: 'paragraph' });

/** Enter (with or without Shift or Mod) does nothing: there is no second line to go to. */
const NoNewLines = Extension.create({
  name: 'titleNoNewLines',
  priority: 1000,
  addKeyboardShortcuts() {
    return { Enter: () => true, 'Shift-Enter': () => true, 'Mod-Enter': () => true };
  },
});

const titleExtensions = [
  OneLineDocument,
  NoNewLines,
  StarterKit.configure({
    // Bold, italic, text and undo: all a title keeps (core/html `sanitizeTitleHtml` drops the rest).
    document: false,
    blockquote: false,
    bulletList: false,
    orderedList: false,
    listItem: false,
    listKeymap: false,
    code: false,
    codeBlock: false,
    heading: false,
    horizontalRule: false,
    hardBreak: false,
    strike: false,
    underline: false,
    dropcursor: false,
    gapcursor: false,
    trailingNode: false,
    link: false,
  }),
];

/** `<p>Buy <strong>X</strong></p>` → `Buy <strong>X</strong>`: the inline HTML the store keeps. */
function inlineHtmlOf(documentHtml: string): string {
  return documentHtml.replace(/^<p>/, '').replace(/<\/p>$/, '');
}

const CONTENT_CLASS = [
  'w-full rounded-b-lg border-2 border-t-0 border-gray-300 bg-white px-3 py-2 font-normal text-gray-900',
  'focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
  '[&_p]:m-0 [&_strong]:font-bold [&_em]:italic',
].join(' ');

const toolButton =
  'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 aria-pressed:bg-brand-100 aria-pressed:text-brand-900';

/** The editable line's attributes: a labelled one-line textbox for assistive technology (and axe). */
function attributesOf({ labelledBy, describedBy, invalid }: Omit<TitleEditorProps, 'initialHtml' | 'onChange'>) {
  return {
    role: 'textbox',
    'aria-multiline': 'false',
    'aria-labelledby': labelledBy,
    'aria-describedby': describedBy,
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    'data-testid': 'title-editor',
    'data-field': 'titleHtml',
    class: CONTENT_CLASS,
  };
}

export default function TitleEditor({ initialHtml, onChange, labelledBy, describedBy, invalid }: TitleEditorProps) {
  const editor = useEditor({
    extensions: titleExtensions,
    content: initialHtml,
    // The admin pages render in the browser only (the layout waits for the token).
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: attributesOf({ labelledBy, describedBy, invalid }),
      // A pasted text's line breaks become spaces: the title is one line.
      transformPastedText: (text) => text.replace(/\s*[\r\n]+\s*/g, ' '),
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : inlineHtmlOf(current.getHTML())),
  });

  // The description and the invalid state follow the server's messages after the editor exists.
  useEffect(() => {
    editor.setOptions({
      editorProps: { ...editor.options.editorProps, attributes: attributesOf({ labelledBy, describedBy, invalid }) },
    });
  }, [editor, labelledBy, describedBy, invalid]);

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({ bold: current.isActive('bold'), italic: current.isActive('italic') }),
  });

  return (
    <div className="mt-1">
      <div
        role="toolbar"
        aria-label="Title formatting"
        className="flex items-center gap-1 rounded-t-lg border-2 border-b-0 border-gray-300 bg-gray-50 px-1.5 py-1"
      >
        <button
          type="button"
          aria-label="Bold"
          title="Bold"
          aria-pressed={active.bold}
          // Keep the selection in the title while clicking.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => editor.chain().focus().toggleBold().run()}
          className={toolButton}
        >
          <span aria-hidden="true" className="font-extrabold">
            B
          </span>
        </button>
        <button
          type="button"
          aria-label="Italic"
          title="Italic"
          aria-pressed={active.italic}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => editor.chain().focus().toggleItalic().run()}
          className={toolButton}
        >
          <span aria-hidden="true" className="font-serif italic">
            I
          </span>
        </button>
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
