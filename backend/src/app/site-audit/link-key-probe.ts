import { createHmac, randomBytes } from 'node:crypto';
import type { CrmSiteGateway, LinkKeyState } from '../crm/site.gateway';
import type { LinkKeySetting } from './findings';

/**
 * The probe's message: a fresh nonce under a prefix no link or token starts with, so a probe's
 * signature opens nothing (civicrm-extension/README.md, "Checking the link keys").
 */
export const LINK_KEY_PROBE_PREFIX = 'checkin-middleware key probe\n';

/** HMAC-SHA256 of the message under the key, hex: what the extension recomputes with its setting. */
export function signProbe(message: string, key: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}

/**
 * Whether each link key the service holds is the extension's: the service signs a fresh message
 * with each and the extension answers whether its setting verifies the signature. No key, and no
 * value a link could use, is sent. Keys the service does not hold are not asked about.
 */
export async function probeLinkKeys(
  site: Pick<CrmSiteGateway, 'verifyLinkKeys'>,
  keys: Readonly<Record<LinkKeySetting, string | undefined>>,
): Promise<Array<[LinkKeySetting, LinkKeyState]>> {
  const held = (Object.entries(keys) as Array<[LinkKeySetting, string | undefined]>).filter(
    (entry): entry is [LinkKeySetting, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  if (held.length === 0) return [];
  const message = LINK_KEY_PROBE_PREFIX + randomBytes(18).toString('base64url');
  const answer = await site.verifyLinkKeys(
    message,
    Object.fromEntries(held.map(([setting, key]) => [setting, signProbe(message, key)])),
  );
  return held.map(([setting]) => [setting, answer[setting] ?? 'differs']);
}
