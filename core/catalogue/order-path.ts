/**
 * The order page's address joins the service slug and the quantity with the literal marker
 * "GOI" (spec section 2): /order/instagram-followersGOI1000?type=Standard.
 */
const SLUG_QTY_SEPARATOR = 'GOI';

export function orderPath(slug: string, qty: number, type: string): string {
  return `/order/${slug}${SLUG_QTY_SEPARATOR}${qty}?type=${encodeURIComponent(type)}`;
}

interface OrderPathParams {
  slug: string;
  qty: number;
}

/** Splits "instagram-followersGOI1000"; null when either part is missing or malformed. */
export function parseOrderParam(param: string): OrderPathParams | null {
  const at = param.lastIndexOf(SLUG_QTY_SEPARATOR);
  if (at <= 0) return null;
  const slug = param.slice(0, at);
  const qtyText = param.slice(at + SLUG_QTY_SEPARATOR.length);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || !/^[1-9]\d{0,9}$/.test(qtyText)) return null;
  return { slug, qty: Number(qtyText) };
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
