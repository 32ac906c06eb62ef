/**
 * The inbox's search column (`contact_messages.search_text`, migration 013, decision 026): the
 * sender's e-mail, the linked order's provider id and the text, lowercased here in JavaScript
 * (Unicode-aware, so "ÉLODIE" finds "élodie" on SQLite too, whose lower() folds ASCII only).
 * Written with the message (core/contact/contact.ts); the inbox lowercases keywords the same way.
 */
export function contactSearchText(fields: { email: string; providerOrderId: string | null; message: string }): string {
  return foldForSearch([fields.email, fields.providerOrderId ?? '', fields.message].join('\n'));
}

export function foldForSearch(text: string): string {
  return text.toLowerCase();
}
