/**
 * Reviews on public pages (decisions 031 and 039): only customers' own words. The home page's
 * carousel shows the newest approved reviews (core/reviews/reviews.ts) and nothing at all when
 * there are none, in the demo store and in a real one alike: the example reviews the demo store
 * used to show are gone (decision 039 supersedes that part of 031). Browser-safe: types only.
 */

/** An approved review as the public pages show it: plain text, escaped on output. */
export interface PublicReview {
  /** The first name or nickname the customer gave. */
  name: string;
  /** 1–5. */
  rating: number;
  text: string;
  /** The service of the reviewed order, e.g. "Instagram Followers". */
  serviceName: string;
  /** When it was written (ISO 8601). */
  createdAt: string;
}
