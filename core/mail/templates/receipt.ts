/**
 * The order receipt e-mail: a table-based, inline-styled HTML part (what mail clients render
 * reliably) and a plain-text part with the same facts. Every interpolated value is escaped.
 */

export interface ReceiptOrder {
  orderNumber: string;
  serviceName: string;
  target: string;
  quantity: number;
  /** Already formatted, e.g. "$2.99". */
  amount: string;
  trackingUrl: string;
  email: string;
  /** Where "contact support" points; default `<origin of trackingUrl>/contact`. */
  supportUrl?: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
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

/** Only absolute http(s) links are allowed in the e-mail; anything else becomes "#". */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : '#';
  } catch {
    return '#';
  }
}

function defaultSupportUrl(trackingUrl: string): string {
  try {
    return new URL('/contact', trackingUrl).toString();
  } catch {
    return '#';
  }
}

/** Subject lines are single-line header values: no CR/LF, no runs of whitespace. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

export const DELIVERY_NOTE =
  'Delivery is gradual so that growth looks natural: it starts within 24-72 hours of your order and continues until the full quantity is delivered.';
export const SUPPORT_NOTE = 'Questions about your order? Our support team is available 24 hours a day, 7 days a week.';

export function renderReceipt(order: ReceiptOrder): RenderedMail {
  const quantity = Number.isFinite(order.quantity) ? order.quantity.toLocaleString('en-US') : String(order.quantity);
  const trackingUrl = safeUrl(order.trackingUrl);
  const supportUrl = safeUrl(order.supportUrl ?? defaultSupportUrl(order.trackingUrl));
  const subject = oneLine(`Your Boostly order ${order.orderNumber} is confirmed`);

  const facts: [string, string][] = [
    ['Order number', order.orderNumber],
    ['Service', order.serviceName],
    ['Target', order.target],
    ['Quantity', quantity],
    ['Amount paid', order.amount],
  ];

  const font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
  const rows = facts
    .map(
      ([label, value], i) => `
              <tr>
                <td style="${font}padding:10px 0;${i ? 'border-top:1px solid #eceef3;' : ''}font-size:14px;color:#6b7280;width:40%;vertical-align:top;">${escapeHtml(label)}</td>
                <td style="${font}padding:10px 0;${i ? 'border-top:1px solid #eceef3;' : ''}font-size:14px;color:#111827;font-weight:600;text-align:right;word-break:break-all;">${escapeHtml(value)}</td>
              </tr>`,
    )
    .join('');

  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f8;">
  <div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">Order ${escapeHtml(order.orderNumber)}: ${escapeHtml(order.serviceName)} for ${escapeHtml(order.target)} is confirmed.</div>
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f8;">
    <tr>
      <td align="center" style="padding:32px 12px;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:12px;">
          <tr>
            <td style="${font}padding:28px 32px 8px 32px;font-size:26px;font-weight:800;color:#6d28d9;letter-spacing:-0.5px;">Boostly</td>
          </tr>
          <tr>
            <td style="${font}padding:8px 32px 0 32px;">
              <h1 style="${font}margin:0 0 8px 0;font-size:20px;line-height:28px;color:#111827;">Thank you, your order is confirmed</h1>
              <p style="${font}margin:0;font-size:15px;line-height:22px;color:#374151;">We have received your payment for order <strong>${escapeHtml(order.orderNumber)}</strong>.</p>
            </td>
          </tr>
          <tr>
            <td style="padding:16px 32px 8px 32px;">
              <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">${rows}
              </table>
            </td>
          </tr>
          <tr>
            <td align="center" style="padding:16px 32px 8px 32px;">
              <table role="presentation" cellpadding="0" cellspacing="0" border="0">
                <tr>
                  <td align="center" bgcolor="#6d28d9" style="border-radius:8px;">
                    <a href="${escapeHtml(trackingUrl)}" target="_blank" style="${font}display:inline-block;padding:12px 28px;font-size:15px;font-weight:700;color:#ffffff;text-decoration:none;border-radius:8px;">Track your order</a>
                  </td>
                </tr>
              </table>
            </td>
          </tr>
          <tr>
            <td style="${font}padding:16px 32px 0 32px;font-size:14px;line-height:21px;color:#374151;">${escapeHtml(DELIVERY_NOTE)}</td>
          </tr>
          <tr>
            <td style="${font}padding:16px 32px 28px 32px;font-size:14px;line-height:21px;color:#374151;">${escapeHtml(SUPPORT_NOTE)} <a href="${escapeHtml(supportUrl)}" style="color:#6d28d9;">Contact support</a> and mention your order number.</td>
          </tr>
        </table>
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
          <tr>
            <td style="${font}padding:16px 32px;font-size:12px;line-height:18px;color:#9ca3af;text-align:center;">This receipt was sent to ${escapeHtml(order.email)} because an order was placed with this address at Boostly.</td>
          </tr>
        </table>
      </td>
    </tr>
  </table>
</body>
</html>
`;

  const width = Math.max(...facts.map(([label]) => label.length)) + 2;
  const text = [
    'Boostly',
    '',
    'Thank you, your order is confirmed.',
    '',
    ...facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    '',
    `Track your order: ${trackingUrl}`,
    '',
    DELIVERY_NOTE,
    '',
    `${SUPPORT_NOTE} Contact support: ${supportUrl} (mention your order number).`,
    '',
    `This receipt was sent to ${order.email} because an order was placed with this address at Boostly.`,
    '',
  ].join('\n');

  return { subject, html, text };
}
