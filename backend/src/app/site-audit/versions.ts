/**
 * The oldest extension release this service works with (civicrm-extension/info.xml): it reports
 * the API user's permissions and checks the link keys. An extension that reports no version is
 * older than every release that does.
 */
export const REQUIRED_EXTENSION_VERSION = '1.2.0';

/** -1, 0 or 1 comparing dotted numeric versions; an unknown version counts as older. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10));
  const [left, right] = [parts(a), parts(b)];
  if (left.some(Number.isNaN)) return -1;
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

export function isCiviCrm5(version: string | null): boolean {
  return version !== null && /^5\./.test(version);
}
