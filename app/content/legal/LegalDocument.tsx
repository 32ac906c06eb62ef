import type { ReactNode } from 'react';
import { Link } from '../../components/Link.tsx';
import type { StoreInfo } from '../../../core/settings/store-info.ts';
import type { HelpPage } from './pages.ts';

interface LegalSection {
  heading: string;
  body: ReactNode;
}

/** One legal page: heading, "Last updated" line when the page has one, numbered sections. */
export function LegalDocument({
  page,
  intro,
  sections,
}: {
  page: HelpPage;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 text-gray-800">
      <h1 className="text-3xl font-bold text-gray-900 sm:text-4xl">{page.title}</h1>
      {page.lastUpdated ? (
        <p data-testid="last-updated" className="mt-2 text-sm text-gray-600">
          Last updated: {page.lastUpdated.text}
        </p>
      ) : null}
      <div className="mt-6 space-y-4 leading-relaxed">{intro}</div>
      {sections.map((section, index) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-xl font-semibold text-gray-900">
            {index + 1}. {section.heading}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed">{section.body}</div>
        </section>
      ))}
    </article>
  );
}

const linkClass = 'font-medium text-brand-700 underline hover:text-brand-800';

export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={linkClass}>
      {children}
    </Link>
  );
}

export function MailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className={linkClass}>
      {email}
    </a>
  );
}

/** The store's contacts from its settings; the phone and address appear only when configured. */
export function StoreContacts({ info }: { info: StoreInfo }) {
  return (
    <ul data-testid="store-contacts" className="list-disc space-y-1 pl-6">
      <li>
        E-mail: <MailLink email={info.supportEmail} />
      </li>
      {info.supportPhone ? (
        <li>
          Phone:{' '}
          <a href={`tel:${info.supportPhone.replace(/[^\d+]/g, '')}`} className={linkClass}>
            {info.supportPhone}
          </a>
        </li>
      ) : null}
      {info.officeAddress ? <li>Office: {info.officeAddress}</li> : null}
      <li>
        The <TextLink to="/contact">contact form</TextLink>, with your order ID if you have one.
      </li>
    </ul>
  );
}

export function List({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-1 pl-6">
      {items.map((item, index) => (
        // Fixed copy, never reordered: the position is the item's identity.
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

export function hours(count: number): string {
  return `${count} hour${count === 1 ? '' : 's'}`;
}
