/**
 * The blog's HTML allowlist (core/html/sanitize.ts, decision 019): the rules one by one, the
 * stored-XSS corpus (tests/fixtures/xss-corpus.ts) checked structurally after sanitising, and
 * properties over generated markup: the output is always on the allowlist and sanitising twice
 * changes nothing.
 */
import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_CHARACTERS } from '../../core/form-fields.ts';
import { sanitizeBlogHtml, sanitizeTitleHtml } from '../../core/html/sanitize.ts';
import { pageCsp } from '../../server/security.ts';
import { XSS_CORPUS, XSS_HOOK } from '../fixtures/xss-corpus.ts';

const PUBLIC_URL = 'https://boostly.example';
/** Generated documents per property; `SANITIZE_RUNS` raises it for a longer hunt. */
const PROPERTY_RUNS = Number(process.env.SANITIZE_RUNS ?? 1500);
const clean = (html: string) => sanitizeBlogHtml(html, { publicUrl: PUBLIC_URL });
const UPLOAD = '/uploads/0123456789abcdef0123456789abcdef.png';

const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  br: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  ul: [],
  ol: [],
  li: [],
  h2: [],
  h3: [],
  h4: [],
  blockquote: [],
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
  iframe: ['src', 'title', 'width', 'height', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy'],
};
const HREF = /^(https?:\/\/[^\s]+|mailto:[^\s]+|\/(?![/\\])[^\s]*|#[^\s]*)$/;
const IMG_SRC = /^\/uploads\/[0-9a-f]{32}(-[1-9]\d{1,3}w)?\.(webp|png|jpg)$/;
const IFRAME_SRC =
  /^https:\/\/(www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}|player\.vimeo\.com\/video\/\d+(\?h=[0-9a-f]+)?)$/;

interface Element {
  name: string;
  attributes: Record<string, string>;
}

/** The elements of `html` as sanitize-html's own parser (htmlparser2) reads them. */
function elementsOf(html: string): Element[] {
  const elements: Element[] = [];
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    // Only the parser is used here; what it would output is thrown away.
    allowVulnerableTags: true,
    onOpenTag: (name, attributes) => elements.push({ name, attributes: { ...attributes } }),
  });
  return elements;
}

/** Everything wrong with sanitised output; empty when it is all on the allowlist. */
function violations(output: string): string[] {
  const problems: string[] = [];
  for (const { name, attributes } of elementsOf(output)) {
    const allowed = ALLOWED[name];
    if (!allowed) {
      problems.push(`tag <${name}>`);
      continue;
    }
    for (const [attribute, value] of Object.entries(attributes)) {
      if (!allowed.includes(attribute)) problems.push(`<${name} ${attribute}>`);
      // URLs: no script or data scheme, however written (alt and title are inert text).
      if ((attribute === 'href' || attribute === 'src') && /^\W*(javascript|vbscript|data):/i.test(value))
        problems.push(`<${name} ${attribute}="${value}">`);
    }
    if (name === 'a' && attributes.href !== undefined && !HREF.test(attributes.href))
      problems.push(`a href ${attributes.href}`);
    if (name === 'a' && attributes.target !== undefined && attributes.target !== '_blank')
      problems.push(`a target ${attributes.target}`);
    if (name === 'img' && !IMG_SRC.test(attributes.src ?? '')) problems.push(`img src ${attributes.src}`);
    if (name === 'iframe' && !IFRAME_SRC.test(attributes.src ?? '')) problems.push(`iframe src ${attributes.src}`);
  }
  // Parser-independent: every `<` that starts a tag in the output names an allowed tag (text is
  // escaped, so a browser's tokenizer sees exactly these tags), and iframes are empty (a
  // browser reads their content as raw text).
  for (const match of output.matchAll(/<\/?([a-zA-Z][^\s/>]*)/g)) {
    if (!((match[1] ?? '').toLowerCase() in ALLOWED)) problems.push(`raw tag ${match[0]}`);
  }
  for (const match of output.matchAll(/<iframe\b[^>]*>([\s\S]*?)<\/iframe>/g)) {
    if (match[1] !== '') problems.push(`iframe content ${match[1]}`);
  }
  if (/<!--|<!\[CDATA\[|<\?/.test(output)) problems.push('comment or processing instruction');
  return problems;
}

describe('sanitizeBlogHtml: the allowlist', () => {
  it('keeps the editor’s marks and drops every attribute of text tags', () => {
    const html =
      '<h2 class="x" style="color:red">Title</h2><p id="p" data-x="1">A <strong>b</strong> <b>b</b> <em>i</em> <i>i</i> ' +
      '<u>u</u> <s>s</s><br></p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><h3>3</h3><h4>4</h4>';
    expect(clean(html)).toBe(
      '<h2>Title</h2><p>A <strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s><br /></p>' +
        '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><h3>3</h3><h4>4</h4>',
    );
  });

  it('turns h1 into h2 and h5/h6 into h4, and drops unknown tags but keeps their text', () => {
    expect(clean('<h1>Big</h1><h5>five</h5><h6>six</h6><div><span>in a div</span></div>')).toBe(
      '<h2>Big</h2><h4>five</h4><h4>six</h4>in a div',
    );
  });

  it('drops scripts, styles, templates and foreign content together with their content', () => {
    expect(
      clean('<p>a</p><script>x()</script><style>p{}</style><template><p>t</p></template><svg><text>s</text></svg>'),
    ).toBe('<p>a</p>');
  });

  it('marks external links rel="noopener noreferrer nofollow" and keeps target only as _blank', () => {
    expect(clean('<a href="https://example.com/a?b=1" target="_blank">x</a>')).toBe(
      '<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(clean('<a href="http://example.com" target="_top" rel="opener">x</a>')).toBe(
      '<a href="http://example.com/" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(clean('<a href="//evil.example/x">x</a>')).toBe(
      '<a href="https://evil.example/x" rel="noopener noreferrer nofollow">x</a>',
    );
    // A backslash after the slash is a protocol-relative URL to a browser: external.
    expect(clean('<a href="/\\evil.example/x">x</a>')).toBe(
      '<a href="https://evil.example/x" rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it('keeps internal links relative, without rel unless they open a new tab', () => {
    expect(clean(`<a href="${PUBLIC_URL}/blog/post?x=1#h">x</a>`)).toBe('<a href="/blog/post?x=1#h">x</a>');
    expect(clean('<a href="/services" target="_blank">x</a>')).toBe(
      '<a href="/services" target="_blank" rel="noopener">x</a>',
    );
    expect(clean('<a href="#section">x</a>')).toBe('<a href="#section">x</a>');
    expect(clean('<a href="mailto:hello@example.com">mail</a>')).toBe('<a href="mailto:hello@example.com">mail</a>');
  });

  it('unwraps links with any other scheme to their text', () => {
    for (const href of [
      'javascript:x()',
      'vbscript:x',
      'data:text/html,x',
      'ftp://x.example',
      'tel:123',
      'java\tscript:x',
    ]) {
      expect(clean(`<a href="${href}">text</a>`), href).toBe('text');
    }
    expect(clean('<a>no href</a>')).toBe('no href');
  });

  it('keeps only images from our uploads, normalised to relative, with checked attributes', () => {
    expect(clean(`<img src="${UPLOAD}" alt="A &quot;cat&quot;" width="640" height="x" style="a" class="b">`)).toBe(
      `<img src="${UPLOAD}" alt="A &quot;cat&quot;" width="640" loading="lazy" decoding="async" />`,
    );
    expect(clean(`<img src="${PUBLIC_URL}${UPLOAD.replace('.png', '-480w.webp')}">`)).toBe(
      `<img src="${UPLOAD.replace('.png', '-480w.webp')}" alt="" loading="lazy" decoding="async" />`,
    );
    for (const src of [
      'https://evil.example/x.png',
      'data:image/png;base64,AAAA',
      '/uploads/../store.db',
      '/uploads/abc.png',
      `${UPLOAD}?x=1`,
      '/images/blog/x.svg',
      `https://other.example${UPLOAD}`,
    ]) {
      expect(clean(`<p>a<img src="${src}">b</p>`), src).toBe('<p>ab</p>');
    }
  });

  it('keeps only YouTube and Vimeo player iframes, rewritten to canonical URLs with fixed attributes', () => {
    const fixed =
      'allow="fullscreen; picture-in-picture; encrypted-media" allowfullscreen="" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"';
    expect(
      clean(
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1" width="560" height="315" frameborder="0" sandbox=""></iframe>',
      ),
    ).toBe(
      `<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" width="560" height="315" ${fixed}></iframe>`,
    );
    expect(clean('<iframe src="https://player.vimeo.com/video/76979871" title="Our demo"></iframe>')).toBe(
      `<iframe src="https://player.vimeo.com/video/76979871" title="Our demo" ${fixed}></iframe>`,
    );
    for (const src of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/embed/short',
      'http://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ',
      'https://player.vimeo.com/video/abc',
      'https://vimeo.com/76979871',
      '//www.youtube.com/embed/dQw4w9WgXcQ',
      'https://evil.example/embed/dQw4w9WgXcQ',
    ]) {
      expect(clean(`<iframe src="${src}">fallback</iframe>`), src).toBe('');
    }
  });

  it('does not depend on PUBLIC_URL for safety: without it, absolute links are external', () => {
    expect(sanitizeBlogHtml('<a href="https://boostly.example/x">x</a><a href="/y">y</a>')).toBe(
      '<a href="https://boostly.example/x" rel="noopener noreferrer nofollow">x</a><a href="/y">y</a>',
    );
  });

  it('keeps only bold and italic in a catalogue title: no link, image, frame, class or other tag', () => {
    expect(sanitizeTitleHtml('<span class="hl">Real</span> <script>x</script>followers')).toBe('Real followers');
    expect(
      sanitizeTitleHtml(
        'Buy <strong class="x">real</strong> <b>TikTok</b> <em style="color:red">likes</em> <i>now</i>' +
          '<a href="https://evil.example">here</a><img src="https://evil.example/p.png">' +
          '<iframe src="https://www.youtube.com/embed/abc"></iframe><u>u</u><h1>big</h1><p>para</p>',
      ),
    ).toBe('Buy <strong>real</strong> <b>TikTok</b> <em>likes</em> <i>now</i>hereubigpara');
    expect(sanitizeTitleHtml('<strong onclick="x()">a</strong><i data-x="1">b</i>')).toBe('<strong>a</strong><i>b</i>');
  });

  it('matches what pages may frame: every embed host it keeps is in the page CSP’s frame-src', () => {
    const frameSrc =
      pageCsp('n')
        .split('; ')
        .find((directive) => directive.startsWith('frame-src ')) ?? '';
    const kept = clean(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe><iframe src="https://player.vimeo.com/video/1"></iframe>',
    );
    for (const { attributes } of elementsOf(kept)) {
      expect(frameSrc.split(' ')).toContain(new URL(attributes.src ?? '').origin);
    }
    expect(frameSrc).toBe('frame-src https://www.youtube-nocookie.com https://player.vimeo.com');
  });
});

describe('the stored-XSS corpus', () => {
  it('has at least 60 payloads, each with a unique id its code would report', () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(XSS_CORPUS.map((payload) => payload.id)).size).toBe(XSS_CORPUS.length);
    const kinds = new Map<string, number>();
    for (const payload of XSS_CORPUS) {
      kinds.set(payload.kind, (kinds.get(payload.kind) ?? 0) + 1);
      // Each names its id (in the hook call, or encoded with the rest of a data: URL).
      expect(payload.html.includes(payload.id) || payload.html.includes('base64,'), payload.id).toBe(true);
      // The API refuses control characters other than tab and line breaks before sanitising.
      expect(UNSAFE_TEXT_CHARACTERS.test(payload.html), payload.id).toBe(false);
    }
    // Every kind of vector the issue names is there more than once.
    for (const count of kinds.values()) expect(count).toBeGreaterThanOrEqual(2);
    expect(kinds.size).toBe(13);
    expect(XSS_CORPUS.filter((payload) => payload.html.includes(XSS_HOOK)).length).toBeGreaterThan(90);
  });

  it.each(XSS_CORPUS.map((payload) => [payload.id, payload.kind, payload.html] as const))(
    '%s (%s) leaves nothing executable and is stable',
    (_id, _kind, html) => {
      const output = clean(html);
      expect(violations(output), output).toEqual([]);
      expect(clean(output)).toBe(output);
    },
  );
});

describe('sanitizeBlogHtml: properties', () => {
  const tags = [
    ...Object.keys(ALLOWED),
    'h1',
    'h5',
    'div',
    'span',
    'script',
    'style',
    'svg',
    'math',
    'noscript',
    'template',
    'textarea',
    'title',
    'xmp',
    'table',
    'td',
    'form',
    'object',
    'select',
    'option',
  ];
  const attributeNames = [
    'href',
    'src',
    'alt',
    'title',
    'width',
    'target',
    'rel',
    'style',
    'class',
    'onerror',
    'srcdoc',
    'xlink:href',
  ];
  const attributeValues = fc.oneof(
    fc.constantFrom(
      'javascript:alert(1)',
      'https://example.com/a',
      '/blog/x',
      UPLOAD,
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://player.vimeo.com/video/42',
      '_blank',
      '100',
      'data:text/html,x',
      '&#106;avascript:x',
      '"><img src=x onerror=alert(1)>',
      "'",
      '',
    ),
    fc.string({ maxLength: 12 }),
  );
  const attribute = fc
    .tuple(fc.constantFrom(...attributeNames), attributeValues, fc.constantFrom('"', "'", ''))
    .map(
      ([name, value, quote]) =>
        ` ${name}=${quote}${quote ? value.replaceAll(quote, '') : value.replace(/[\s>]/g, '')}${quote}`,
    );
  const piece = fc.oneof(
    fc
      .tuple(fc.constantFrom(...tags), fc.array(attribute, { maxLength: 3 }), fc.boolean())
      .map(([tag, attributes, selfClose]) => `<${tag}${attributes.join('')}${selfClose ? ' /' : ''}>`),
    fc.constantFrom(...tags).map((tag) => `</${tag}>`),
    fc.constantFrom(
      '&amp;',
      '&lt;',
      '&gt;',
      '&quot;',
      '&#60;',
      '&',
      '<',
      '>',
      '"',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '</',
      '<?',
    ),
    fc.string({ maxLength: 10 }),
  );
  const markup = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));

  it('always produces output on the allowlist', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(markup, (html) => {
        const output = clean(html);
        expect(violations(output), `${html}\n→ ${output}`).toEqual([]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('is idempotent: sanitising its own output changes nothing', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(markup, (html) => {
        const once = clean(html);
        expect(clean(once)).toBe(once);
        expect(sanitizeBlogHtml(sanitizeBlogHtml(html))).toBe(sanitizeBlogHtml(html));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
