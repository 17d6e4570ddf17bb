import type { OrganizerContact } from './payloads';

/**
 * "contact Sam Rivera at sam@example.org and ask for a new personal link.": whom an owner asks
 * when something goes wrong (ORGANIZER_NAME, ORGANIZER_EMAIL), written once for the app's notice
 * (frontend/src/app/core/organizer-contact.ts) and the pages the service answers without the app
 * (backend/src/app/pages/refusal-page.ts). The email, when set, is a `mailto:` link between
 * `before` and `after`.
 */
export interface OrganizerContactWords {
  before: string;
  email: string | null;
  after: string;
}

export function organizerContactWords(
  { name, email }: OrganizerContact,
  needsNewLink = false,
): OrganizerContactWords {
  const ending = needsNewLink ? ' and ask for a new personal link.' : '.';
  if (name && email) return { before: `contact ${name} at `, email, after: ending };
  if (email) return { before: 'contact your organizer at ', email, after: ending };
  if (name) return { before: `contact ${name}, your organizer${ending}`, email: null, after: '' };
  return { before: `contact the organizer who sent you your check-in link${ending}`, email: null, after: '' };
}
