import { createHmac } from 'node:crypto';

/**
 * Staff file links through the extension's route `civicrm/checkin-file` (docs/decisions.md,
 * "Staff file links, signed"): the service signs the file id and an expiry with FILE_LINK_KEY, and the extension,
 * holding the same key in its setting `checkin_middleware_file_link_key`, serves a file only
 * through a link whose signature and expiry hold (and only to a logged-in user allowed to see the
 * contact owning the file). Ids are sequential: without the signature anyone with "access
 * uploaded files" could walk them.
 */

/** The route when CRM_FILE_ROUTE does not name another one (Standalone and Drupal URL form). */
export const EXTENSION_FILE_ROUTE = '/civicrm/checkin-file?id={id}';

/** Long enough for a staff member to open a report and read it through a working day. */
export const FILE_LINK_TTL_SECONDS = 12 * 3600;

/** The message both sides sign; the extension builds the same string (CRM/CheckinMiddleware/Page/File.php). */
export function fileLinkMessage(fileId: number, expires: number): string {
  return `checkin-file:${fileId}:${expires}`;
}

export function fileLinkSignature(key: string, fileId: number, expires: number): string {
  return createHmac('sha256', key).update(fileLinkMessage(fileId, expires)).digest('hex');
}

/**
 * The signed link of each file: the route with its id, plus `expires` and `signature`. `now` is a
 * parameter so the expiry of every link in one report is the same.
 */
export function signedFileLinks(
  fileIds: readonly number[],
  options: { baseUrl: string; route?: string; key: string; nowSeconds: number },
): Map<number, string> {
  const expires = options.nowSeconds + FILE_LINK_TTL_SECONDS;
  const route = options.route ?? EXTENSION_FILE_ROUTE;
  const links = new Map<number, string>();
  for (const id of fileIds) {
    // Resolved as the page resolves CRM_FILE_ROUTE (README, "Decisions where the product's rules are silent", Staff file links): a relative route
    // under CRM_BASE_URL as a folder, one starting with / at the host root.
    const url = new URL(route.split('{id}').join(encodeURIComponent(String(id))), `${options.baseUrl}/`);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', fileLinkSignature(options.key, id, expires));
    links.set(id, url.toString());
  }
  return links;
}
