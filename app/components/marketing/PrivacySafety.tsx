import { type ReactNode, useId } from 'react';

interface Feature {
  title: string;
  text: string;
  icon: ReactNode;
}

const iconProps = {
  'aria-hidden': true,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  className: 'h-6 w-6',
} as const;

const FEATURES: Feature[] = [
  {
    title: 'We never ask for your password',
    text: 'All we need is your username or a link to your post, plus an e-mail address for your receipt.',
    icon: (
      <svg {...iconProps}>
        <rect x="4" y="10" width="16" height="10" rx="2" />
        <path d="M8 10V7a4 4 0 0 1 8 0v3" />
      </svg>
    ),
  },
  {
    title: 'Secure card payments',
    text: 'Card payments are handled by an external, secure payment provider, and your receipt is e-mailed to you.',
    icon: (
      <svg {...iconProps}>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="M3 10h18M7 15h4" />
      </svg>
    ),
  },
  {
    title: 'Your data is kept no longer than 2 years',
    text: 'We keep only what we need to deliver and support your order, and delete it after at most 2 years.',
    icon: (
      <svg {...iconProps}>
        <path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6l8-3z" />
        <path d="M9 12l2 2 4-4" />
      </svg>
    ),
  },
];

/** "Privacy and safety" block: three feature cards. */
export function PrivacySafety() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-center text-2xl font-bold text-gray-900 sm:text-3xl">
        Privacy and safety
      </h2>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
            <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
              {feature.icon}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-gray-900">{feature.title}</h3>
            <p className="mt-2 text-gray-600">{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
