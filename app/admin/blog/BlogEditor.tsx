/**
 * The post body editor (Tiptap, spec "Admin blog add and edit forms"): a toolbar with bold,
 * italic, underline, ordered and bullet lists, link (a small box for the address; a bare e-mail
 * becomes `mailto:`), clean formatting, a YouTube/Vimeo player and an uploaded image.
 *
 * This module is the only one that imports Tiptap/ProseMirror, and the forms load it with
 * `React.lazy`: the editor's code is fetched on the admin add/edit pages only, never by the
 * public pages (docs/decisions/021-admin-blog-editor.md).
 */
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { TextSelection } from '@tiptap/pm/state';
import { ButtonSpinner } from '../orders.tsx';
import { isUnauthorized } from '../token.ts';
import { messageOf } from '../../api/client.ts';
import { StrokeIcon } from '../../components/StrokeIcon.tsx';
import { imageFileProblem } from '../../../core/uploads/signatures.ts';
import { uploadBodyImage } from './api.ts';
import {
  IMAGE_ACCEPT,
  INVALID_IMAGE_MESSAGE,
  isAllowedImageFile,
  linkTarget,
  linkText,
  videoEmbedFromUrl,
} from './editor-helpers.ts';
import { BodyImage, VideoEmbed, blogExtensions, insertBlock, providerTitle } from './extensions.ts';

export interface BlogEditorProps {
  /** The HTML the editor starts with (the stored post, or '' for a new one). */
  initialHtml: string;
  /** Every change, as HTML ('' when the body is empty). */
  onChange: (html: string) => void;
  /** The id of the visible label ("Description"). */
  labelledBy: string;
}

type Panel = 'link' | 'video' | 'image' | null;

/** Styles for the editable body: the public post's look, roughly, inside the admin. */
const CONTENT_CLASS = [
  'min-h-64 max-w-none rounded-b-xl border-2 border-t-0 border-gray-300 bg-white px-4 py-3 text-gray-900',
  'focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
  '[&_p]:my-2 [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-bold',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_a]:text-brand-700 [&_a]:underline [&_strong]:font-bold [&_blockquote]:border-l-4 [&_blockquote]:pl-3',
  '[&_img]:my-3 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg',
  '[&_iframe]:pointer-events-none [&_iframe]:my-3 [&_iframe]:aspect-video [&_iframe]:h-auto [&_iframe]:w-full [&_iframe]:max-w-xl',
  '[&_.ProseMirror-selectednode]:outline-2 [&_.ProseMirror-selectednode]:outline-brand-600',
].join(' ');

const toolButton =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-lg px-2 text-sm font-semibold text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 aria-pressed:bg-brand-100 aria-pressed:text-brand-900 disabled:opacity-50';
const fieldClass =
  'w-full rounded-lg border-2 border-gray-300 bg-white px-3 py-1.5 text-sm text-gray-900 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';
const smallPrimary =
  'inline-flex items-center gap-2 rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70';
const smallSecondary =
  'inline-flex items-center rounded-lg border-2 border-gray-300 bg-white px-3 py-1 text-sm font-semibold text-gray-900 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

function ToolButton({
  label,
  pressed,
  onClick,
  children,
  expanded,
  controls,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  expanded?: boolean;
  controls?: string;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      // Keep the text selection in the editor while clicking the toolbar.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className={toolButton}
    >
      {children}
    </button>
  );
}

function Icon({ d }: { d: string }) {
  return (
    <StrokeIcon className="h-4 w-4">
      <path d={d} />
    </StrokeIcon>
  );
}

/** Moves focus into a box when it opens (instead of `autoFocus`, which fires on every remount). */
function useFocusOnOpen<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

/** The selected text, if it is a whole address or e-mail the admin probably wants to link. */
function selectedText(editor: Editor): string {
  const { from, to } = editor.state.selection;
  return editor.state.doc.textBetween(from, to, ' ').trim();
}

/**
 * The small box under the toolbar for a link, a video or an image. A nested <form> would be
 * invalid inside the post's form, so this is a labelled group: Enter in a text box applies,
 * Escape closes and returns to the text.
 */
function PanelBox({
  id,
  title,
  onSubmit,
  onClose,
  children,
}: {
  id: string;
  title: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type !== 'file') {
      event.preventDefault();
      onSubmit();
    }
  };
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- keydown delegation: Enter and Escape from the box's own inputs and buttons
    <div
      id={id}
      role="group"
      aria-label={title}
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-end gap-2 border-x-2 border-t-2 border-gray-300 bg-gray-50 px-3 py-2"
    >
      {children}
    </div>
  );
}

function LinkPanel({ id, editor, onClose }: { id: string; editor: Editor; onClose: (refocus?: boolean) => void }) {
  const ids = useId();
  const input = useFocusOnOpen<HTMLInputElement>();
  const current = (editor.getAttributes('link') as { href?: string }).href ?? '';
  const [value, setValue] = useState(() => {
    if (current) return linkText(current);
    const text = selectedText(editor);
    return linkTarget(text).ok ? text : '';
  });
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    const target = linkTarget(value);
    if (!target.ok) {
      setError(target.message);
      return;
    }
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({
        type: 'text',
        text: linkText(target.href),
        marks: [{ type: 'link', attrs: { href: target.href } }],
      });
    } else {
      // Then the cursor goes to the end of the link: the next key typed continues the text
      // instead of replacing the linked words.
      chain
        .extendMarkRange('link')
        .setLink({ href: target.href })
        .command(({ tr }) => {
          tr.setSelection(TextSelection.create(tr.doc, tr.selection.to));
          return true;
        });
    }
    chain.run();
    onClose(false);
  };

  const remove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onClose(false);
  };

  return (
    <PanelBox id={id} title="Link" onSubmit={apply} onClose={onClose}>
      <div className="min-w-56 flex-1">
        <label htmlFor={`${ids}-url`} className="mb-1 block text-xs font-semibold text-gray-900">
          Link address or e-mail
        </label>
        <input
          ref={input}
          id={`${ids}-url`}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : undefined}
          placeholder="https://… or name@example.com"
          className={fieldClass}
        />
        {error ? (
          <p id={`${ids}-error`} className="mt-1 text-xs font-medium text-red-800">
            {error}
          </p>
        ) : null}
      </div>
      <button type="button" onClick={apply} className={smallPrimary}>
        Apply link
      </button>
      {current ? (
        <button type="button" onClick={remove} className={smallSecondary}>
          Remove link
        </button>
      ) : null}
      <button type="button" onClick={() => onClose()} className={smallSecondary}>
        Cancel
      </button>
    </PanelBox>
  );
}

function VideoPanel({ id, editor, onClose }: { id: string; editor: Editor; onClose: (refocus?: boolean) => void }) {
  const ids = useId();
  const input = useFocusOnOpen<HTMLInputElement>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    const embed = videoEmbedFromUrl(value);
    if (!embed) {
      setError('Paste the address of a YouTube or Vimeo video.');
      return;
    }
    insertBlock(editor, { type: VideoEmbed.name, attrs: { src: embed.src, title: providerTitle(embed.provider) } });
    onClose();
  };

  return (
    <PanelBox id={id} title="Video" onSubmit={apply} onClose={onClose}>
      <div className="min-w-56 flex-1">
        <label htmlFor={`${ids}-url`} className="mb-1 block text-xs font-semibold text-gray-900">
          YouTube or Vimeo address
        </label>
        <input
          ref={input}
          id={`${ids}-url`}
          type="url"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : undefined}
          placeholder="https://www.youtube.com/watch?v=…"
          className={fieldClass}
        />
        {error ? (
          <p id={`${ids}-error`} className="mt-1 text-xs font-medium text-red-800">
            {error}
          </p>
        ) : null}
      </div>
      <button type="button" onClick={apply} className={smallPrimary}>
        Insert video
      </button>
      <button type="button" onClick={() => onClose()} className={smallSecondary}>
        Cancel
      </button>
    </PanelBox>
  );
}

function ImagePanel({ id, editor, onClose }: { id: string; editor: Editor; onClose: (refocus?: boolean) => void }) {
  const ids = useId();
  const fileInput = useFocusOnOpen<HTMLInputElement>();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  const upload = async () => {
    if (!file) {
      setError('Choose an image first.');
      return;
    }
    setUploading(true);
    try {
      const image = await uploadBodyImage(file);
      insertBlock(editor, {
        type: BodyImage.name,
        attrs: { src: image.url, alt: alt.trim(), width: image.width, height: image.height },
      });
      onClose();
    } catch (caught) {
      if (!isUnauthorized(caught)) setError(messageOf(caught));
    } finally {
      setUploading(false);
    }
  };

  return (
    <PanelBox id={id} title="Image" onSubmit={() => void upload()} onClose={onClose}>
      <div>
        <label htmlFor={`${ids}-file`} className="mb-1 block text-xs font-semibold text-gray-900">
          Image (jpg, png, svg or webp)
        </label>
        <input
          ref={fileInput}
          id={`${ids}-file`}
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : undefined}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setError(null);
            const input = event.target;
            const refuse = (message: string) => {
              input.value = '';
              setFile(null);
              setError(message);
            };
            if (!chosen) {
              setFile(null);
            } else if (!isAllowedImageFile(chosen)) {
              refuse(INVALID_IMAGE_MESSAGE);
            } else {
              // Its first bytes decide (the server's signature table), so a renamed file is refused now.
              void imageFileProblem(chosen).then((problem) => {
                if (problem) refuse(problem);
                else setFile(chosen);
              });
            }
          }}
          className="block text-sm text-gray-900 file:mr-2 file:rounded-lg file:border-0 file:bg-brand-100 file:px-3 file:py-1.5 file:font-semibold file:text-brand-900"
        />
      </div>
      <div className="min-w-48 flex-1">
        <label htmlFor={`${ids}-alt`} className="mb-1 block text-xs font-semibold text-gray-900">
          Description for screen readers (alt text)
        </label>
        <input
          id={`${ids}-alt`}
          type="text"
          value={alt}
          maxLength={200}
          onChange={(event) => setAlt(event.target.value)}
          className={fieldClass}
        />
      </div>
      <button type="button" onClick={() => void upload()} disabled={uploading} className={smallPrimary}>
        {uploading ? <ButtonSpinner /> : null}
        {uploading ? 'Uploading…' : 'Upload and insert'}
      </button>
      <button type="button" onClick={() => onClose()} className={smallSecondary}>
        Cancel
      </button>
      {error ? (
        <p id={`${ids}-error`} role="alert" className="basis-full text-xs font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </PanelBox>
  );
}

export default function BlogEditor({ initialHtml, onChange, labelledBy }: BlogEditorProps) {
  const ids = useId();
  const panelId = `${ids}-panel`;
  const [panel, setPanel] = useState<Panel>(null);

  const editor = useEditor({
    extensions: blogExtensions,
    content: initialHtml,
    // The admin pages render in the browser only (the layout waits for the token).
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        'data-testid': 'blog-editor',
        class: CONTENT_CLASS,
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      orderedList: current.isActive('orderedList'),
      bulletList: current.isActive('bulletList'),
      link: current.isActive('link'),
    }),
  });

  const toggle = (name: Exclude<Panel, null>) => setPanel((open) => (open === name ? null : name));
  /** Closes the box; back to the text unless the box's own command already focused it. */
  const closePanel = (refocus = true) => {
    setPanel(null);
    if (refocus) editor.commands.focus();
  };

  return (
    <div>
      <div
        role="toolbar"
        aria-label="Formatting"
        aria-controls={`${ids}-content`}
        className="flex flex-wrap items-center gap-1 rounded-t-xl border-2 border-b-0 border-gray-300 bg-gray-50 px-2 py-1.5"
      >
        <ToolButton label="Bold" pressed={active.bold} onClick={() => editor.chain().focus().toggleBold().run()}>
          <span aria-hidden="true" className="font-extrabold">
            B
          </span>
        </ToolButton>
        <ToolButton label="Italic" pressed={active.italic} onClick={() => editor.chain().focus().toggleItalic().run()}>
          <span aria-hidden="true" className="font-serif italic">
            I
          </span>
        </ToolButton>
        <ToolButton
          label="Underline"
          pressed={active.underline}
          onClick={() => editor.chain().focus().toggleUnderline().run()}
        >
          <span aria-hidden="true" className="underline">
            U
          </span>
        </ToolButton>
        <span aria-hidden="true" className="mx-1 h-6 w-px bg-gray-300" />
        <ToolButton
          label="Numbered list"
          pressed={active.orderedList}
          onClick={() => editor.chain().focus().toggleOrderedList().run()}
        >
          <Icon d="M10 6h10M10 12h10M10 18h10M4 4h1v4M4 8h2M4 14.5a1 1 0 0 1 2 0c0 .8-2 1.5-2 2.5h2" />
        </ToolButton>
        <ToolButton
          label="Bulleted list"
          pressed={active.bulletList}
          onClick={() => editor.chain().focus().toggleBulletList().run()}
        >
          <Icon d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />
        </ToolButton>
        <span aria-hidden="true" className="mx-1 h-6 w-px bg-gray-300" />
        <ToolButton
          label="Link"
          pressed={active.link}
          expanded={panel === 'link'}
          controls={panelId}
          onClick={() => toggle('link')}
        >
          <Icon d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
        </ToolButton>
        <ToolButton
          label="Video (YouTube or Vimeo)"
          expanded={panel === 'video'}
          controls={panelId}
          onClick={() => toggle('video')}
        >
          <Icon d="M4 6h12a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1Zm13 4 4-2.5v9L17 14" />
        </ToolButton>
        <ToolButton label="Image" expanded={panel === 'image'} controls={panelId} onClick={() => toggle('image')}>
          <Icon d="M4 5h16v14H4zM4 16l4.5-4.5 3.5 3.5 2.5-2.5L20 17M15 9.5h.01" />
        </ToolButton>
        <span aria-hidden="true" className="mx-1 h-6 w-px bg-gray-300" />
        <ToolButton label="Clear formatting" onClick={() => editor.chain().focus().unsetAllMarks().clearNodes().run()}>
          <Icon d="M6 5h12M12 5l-3 14M15 15l5 5m0-5-5 5" />
        </ToolButton>
      </div>

      {panel === 'link' ? <LinkPanel id={panelId} editor={editor} onClose={closePanel} /> : null}
      {panel === 'video' ? <VideoPanel id={panelId} editor={editor} onClose={closePanel} /> : null}
      {panel === 'image' ? <ImagePanel id={panelId} editor={editor} onClose={closePanel} /> : null}

      <EditorContent id={`${ids}-content`} editor={editor} />
      <p className="mt-1 text-xs text-gray-700">Paste a YouTube or Vimeo address on its own to embed the video.</p>
    </div>
  );
}
