/**
 * The shell every transactional e-mail shares: a table-based, inline-styled HTML part (what
 * mail clients render reliably) and a plain-text part with the same facts. Every interpolated
 * value is escaped here, so templates pass plain text only.
 */

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

interface MailContent {
  subject: string;
  /** The hidden preview line mail clients show next to the subject. */
  preheader: string;
  heading: string;
  intro: string;
  /** Label/value rows, e.g. the order's facts. */
  facts?: [string, string][];
  /** A large, prominent value such as a one-time code. */
  highlight?: string;
  button?: { label: string; url: string };
  paragraphs?: string[];
  /** Closing line with a link, e.g. support. */
  support?: { text: string; linkLabel: string; url: string; after?: string };
  footer: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Only absolute http(s) links are allowed in e-mails; anything else becomes "#". */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : '#';
  } catch {
    return '#';
  }
}

/** Subject lines are single-line header values: no CR/LF, no runs of whitespace. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

export function renderMail(content: MailContent): RenderedMail {
  const subject = oneLine(content.subject);
  const facts = content.facts ?? [];
  const button = content.button ? { ...content.button, url: safeUrl(content.button.url) } : undefined;
  const support = content.support ? { ...content.support, url: safeUrl(content.support.url) } : undefined;

  const rows = facts
    .map(
      ([label, value], i) => `
              <tr>
                <td style="${FONT}padding:10px 0;${i ? 'border-top:1px solid #eceef3;' : ''}font-size:14px;color:#6b7280;width:40%;vertical-align:top;">${escapeHtml(label)}</td>
                <td style="${FONT}padding:10px 0;${i ? 'border-top:1px solid #eceef3;' : ''}font-size:14px;color:#111827;font-weight:600;text-align:right;word-break:break-all;">${escapeHtml(value)}</td>
              </tr>`,
    )
    .join('');

  const section = (inner: string, padding = '16px 32px 0 32px') =>
    `
          <tr>
            <td style="${FONT}padding:${padding};font-size:14px;line-height:21px;color:#374151;">${inner}</td>
          </tr>`;

  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f8;">
  <div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">${escapeHtml(content.preheader)}</div>
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f8;">
    <tr>
      <td align="center" style="padding:32px 12px;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:12px;">
          <tr>
            <td style="${FONT}padding:28px 32px 8px 32px;font-size:26px;font-weight:800;color:#6d28d9;letter-spacing:-0.5px;">Boostly</td>
          </tr>
          <tr>
            <td style="${FONT}padding:8px 32px 0 32px;">
              <h1 style="${FONT}margin:0 0 8px 0;font-size:20px;line-height:28px;color:#111827;">${escapeHtml(content.heading)}</h1>
              <p style="${FONT}margin:0;font-size:15px;line-height:22px;color:#374151;">${escapeHtml(content.intro)}</p>
            </td>
          </tr>${
            content.highlight
              ? `
          <tr>
            <td align="center" style="${FONT}padding:20px 32px 4px 32px;font-size:34px;font-weight:800;letter-spacing:8px;color:#111827;">${escapeHtml(content.highlight)}</td>
          </tr>`
              : ''
          }${
            rows
              ? `
          <tr>
            <td style="padding:16px 32px 8px 32px;">
              <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">${rows}
              </table>
            </td>
          </tr>`
              : ''
          }${
            button
              ? `
          <tr>
            <td align="center" style="padding:16px 32px 8px 32px;">
              <table role="presentation" cellpadding="0" cellspacing="0" border="0">
                <tr>
                  <td align="center" bgcolor="#6d28d9" style="border-radius:8px;">
                    <a href="${escapeHtml(button.url)}" target="_blank" style="${FONT}display:inline-block;padding:12px 28px;font-size:15px;font-weight:700;color:#ffffff;text-decoration:none;border-radius:8px;">${escapeHtml(button.label)}</a>
                  </td>
                </tr>
              </table>
            </td>
          </tr>`
              : ''
          }${(content.paragraphs ?? []).map((p) => section(escapeHtml(p))).join('')}${
            support
              ? section(
                  `${escapeHtml(support.text)} <a href="${escapeHtml(support.url)}" style="color:#6d28d9;">${escapeHtml(support.linkLabel)}</a>${support.after ? ` ${escapeHtml(support.after)}` : ''}`,
                  '16px 32px 28px 32px',
                )
              : section('', '0 0 28px 0')
          }
        </table>
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
          <tr>
            <td style="${FONT}padding:16px 32px;font-size:12px;line-height:18px;color:#9ca3af;text-align:center;">${escapeHtml(content.footer)}</td>
          </tr>
        </table>
      </td>
    </tr>
  </table>
</body>
</html>
`;

  const width = facts.length ? Math.max(...facts.map(([label]) => label.length)) + 2 : 0;
  const text = [
    'Boostly',
    '',
    content.heading.endsWith('.') ? content.heading : `${content.heading}.`,
    '',
    content.intro,
    ...(content.highlight ? ['', content.highlight] : []),
    ...(facts.length ? ['', ...facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`)] : []),
    ...(button ? ['', `${button.label}: ${button.url}`] : []),
    ...(content.paragraphs ?? []).flatMap((p) => ['', p]),
    ...(support
      ? ['', `${support.text} ${support.linkLabel}: ${support.url}${support.after ? ` ${support.after}` : ''}`]
      : []),
    '',
    content.footer,
    '',
  ].join('\n');

  return { subject, html, text };
}
