/**
 * Reading a reply from a system outside the store (a supplier panel, a payment provider, an
 * oEmbed endpoint) without trusting its size: the body is read as a stream and reading stops at
 * a cap, so a reply of hundreds of megabytes costs at most the cap in memory. Callers pass a
 * timeout signal to `fetch`, which also ends a body that trickles in forever.
 */

/** The body as text, or null when it is larger than `maxBytes` (reading stops there). */
export async function readCappedText(response: Response, maxBytes: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** The body parsed as JSON; null when it is not JSON or larger than `maxBytes`. */
export async function readCappedJson(response: Response, maxBytes: number): Promise<unknown> {
  const text = await readCappedText(response, maxBytes);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** What a payment provider's API answers is a small JSON document; a megabyte is far beyond it. */
export const PROVIDER_REPLY_MAX_BYTES = 1024 * 1024;
