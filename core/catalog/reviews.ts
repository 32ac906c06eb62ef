/**
 * Reviews on public pages (decision 031): no invented social proof. Until real reviews are
 * collected (the owner console, issue 14), a store taking real payments shows none; the demo
 * store (sandbox payments) shows the examples below, labelled as examples.
 */

export interface Review {
  name: string;
  /** Social handle, shown with a leading @. */
  handle: string;
  /** 0–5. */
  rating: number;
  text: string;
}

export interface PublicReviews {
  reviews: Review[];
  /** True when these are the demo examples, not customers' words. */
  examples: boolean;
}

/** Written for the demo store, not by customers; shown only with the "example" label. */
const exampleReviews: Review[] = [
  {
    name: 'Maya Thompson',
    handle: 'mayabakes',
    rating: 5,
    text: 'I ordered 5,000 followers for my baking page. Delivery started the next day and came in steadily over a week, so it looked natural.',
  },
  {
    name: 'Daniel Okafor',
    handle: 'danfitcoach',
    rating: 5,
    text: 'Only needed my username and e-mail, no password. That was the reason I trusted them, and the order arrived exactly as described.',
  },
  {
    name: 'Lucía Fernández',
    handle: 'lucia.travels',
    rating: 4,
    text: 'A few followers dropped after two weeks, but support topped them back up under the refill guarantee without any fuss.',
  },
  {
    name: 'Ethan Park',
    handle: 'ethanplaysguitar',
    rating: 5,
    text: 'Bought YouTube views for a new cover video. The views came in gradually and the video started showing up in suggestions.',
  },
  {
    name: 'Priya Nair',
    handle: 'priyadesigns',
    rating: 5,
    text: 'Checkout took a minute and the receipt landed in my inbox straight away. I could track the order status by e-mail too.',
  },
  {
    name: 'Tom Becker',
    handle: 'tomscoffeecorner',
    rating: 4,
    text: 'Support answered on a Sunday evening when I asked about the start time. Followers began arriving within 48 hours.',
  },
  {
    name: 'Aisha Rahman',
    handle: 'aisha.styles',
    rating: 5,
    text: 'TikTok likes on my latest post helped it get picked up. Clear prices and no surprises at checkout.',
  },
  {
    name: 'Marco Rossi',
    handle: 'marcocooks',
    rating: 5,
    text: 'Second order now. I placed separate orders for my two pages as the FAQ suggests and both were delivered on time.',
  },
  {
    name: 'Sofia Lindqvist',
    handle: 'sofia.paints',
    rating: 4,
    text: 'Made sure my account was public before ordering, as they ask. Growth was smooth and nothing looked suspicious.',
  },
  {
    name: 'James Walker',
    handle: 'jwalkerphoto',
    rating: 5,
    text: 'Good value for the bulk package. The bonus followers on top of my order were a nice touch.',
  },
];

/** What the home page may show: the examples in the sandbox demo store only, otherwise none. */
export function publicReviews(options: { paymentsSimulated: boolean }): PublicReviews {
  return options.paymentsSimulated ? { reviews: exampleReviews, examples: true } : { reviews: [], examples: false };
}
