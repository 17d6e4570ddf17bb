import { type OrganizerContact, organizerContactWords } from '@checkin/contract';

/**
 * A page load refused before any rendering (over the reads limit), as a page: no script, no
 * stylesheet request; the message is the service's own text, and whom to contact is said in the
 * words the app's notices use (organizerContactWords, @checkin/contract).
 */
export function refusalPage(message: string, organizer: OrganizerContact): string {
  const { before, email, after } = organizerContactWords(organizer);
  const contact =
    escapeHtml(`If this keeps happening, ${before}`) +
    (email === null ? '' : `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`) +
    escapeHtml(after);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Please wait a moment – Co-op check-in</title></head>',
    '<body><main>',
    `<h1>Please wait a moment</h1><p role="alert">${escapeHtml(message)}</p>`,
    '<p>Then reload this page.</p>',
    `<p>${contact}</p>`,
    '</main></body>',
    '</html>',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
