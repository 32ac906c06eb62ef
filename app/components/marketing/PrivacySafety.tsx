import { useId } from 'react';
import { StrokeIcon } from '../StrokeIcon.tsx';
import type { CopyItem } from './copy.ts';

/** The features' icons, in the order of PRIVACY_FEATURES: lock, card, shield. */
const ICONS = [
  <g key="lock">
    <rect x="4" y="10" width="16" height="10" rx="2" />
    <path d="M8 10V7a4 4 0 0 1 8 0v3" />
  </g>,
  <g key="card">
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 10h18M7 15h4" />
  </g>,
  <path key="shield" d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3zM9 12l2 2 4-4" />,
];

/** "Privacy and safety" block: three feature cards. */
export function PrivacySafety({ features }: { features: readonly CopyItem[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-center text-2xl font-bold text-ink sm:text-3xl">
        Privacy and safety
      </h2>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {features.map((feature, index) => (
          <li key={feature.title} className="rounded-card border border-line bg-white p-6 shadow-card">
            <span className="flex h-12 w-12 items-center justify-center rounded-card bg-brand-50 text-brand-700">
              <StrokeIcon className="h-6 w-6">{ICONS[index]}</StrokeIcon>
            </span>
            <h3 className="mt-4 text-lg font-semibold text-ink">{feature.title}</h3>
            <p className="mt-2 text-gray-600">{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
