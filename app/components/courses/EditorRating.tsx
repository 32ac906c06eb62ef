const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';

/** How much of each of the five stars is filled: 1, 0.5 or 0 (the spec's full or half stars). */
export function starFills(rating: number): (0 | 0.5 | 1)[] {
  const halves = Math.round(Math.max(0, Math.min(5, Number.isFinite(rating) ? rating : 0)) * 2);
  return [0, 1, 2, 3, 4].map((i) => {
    const left = halves - i * 2;
    return left >= 2 ? 1 : left === 1 ? 0.5 : 0;
  });
}

function Star({ fill }: { fill: 0 | 0.5 | 1 }) {
  return (
    <span className="relative inline-block h-4 w-4">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="absolute inset-0 h-4 w-4 fill-gray-300">
        <path d={STAR_PATH} />
      </svg>
      {fill > 0 ? (
        <span className={`absolute inset-y-0 left-0 overflow-hidden ${fill === 1 ? 'w-4' : 'w-2'}`}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-amber-500">
            <path d={STAR_PATH} />
          </svg>
        </span>
      ) : null}
    </span>
  );
}

/**
 * The course's rating, said for what it is: our editor's rating, not customer reviews (decision
 * 027). Stars for the eye, one accessible name for screen readers, and the words beside them.
 */
export function EditorRating({ rating }: { rating: string }) {
  const value = Number(rating);
  return (
    <span className="inline-flex items-center gap-2 text-sm text-gray-700" data-testid="editor-rating">
      <span role="img" aria-label={`Editor's rating: ${value} out of 5`} className="flex gap-0.5">
        {starFills(value).map((fill, i) => (
          <Star key={i} fill={fill} />
        ))}
      </span>
      <span aria-hidden="true">{value} · Editor&rsquo;s rating</span>
    </span>
  );
}
