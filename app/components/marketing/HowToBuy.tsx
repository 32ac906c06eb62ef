import { useId } from 'react';

const STEPS: { title: string; text: string }[] = [
  { title: 'Choose a package', text: 'Pick the service and the quantity that suits your account.' },
  { title: 'Enter your username', text: 'Give your username or post link and your e-mail. No password needed.' },
  { title: 'Complete payment', text: 'Pay securely by card. Your receipt is e-mailed straight away.' },
  { title: "That's all", text: 'Delivery starts within 24-72 hours and arrives gradually.' },
];

/** The four-step "How to buy" guide. */
export function HowToBuy() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-center text-2xl font-bold text-gray-900 sm:text-3xl">
        How to buy
      </h2>
      <ol className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((step, index) => (
          <li key={step.title} className="rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm">
            <span
              aria-hidden="true"
              className="mx-auto flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-gray-900">{step.title}</h3>
            <p className="mt-2 text-gray-600">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
