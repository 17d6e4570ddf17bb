import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintStaffLink, verifyStaffLink } from './auth/staff-link-token';
import { previewLinks } from './admin/preview-links';
import { fileLinkMessage, fileLinkSignature, signedFileLinks } from './staff-report/file-link-signature';

/**
 * The values the service and the CiviCRM extension exchange, checked against the same JSON
 * vectors the extension's PHPUnit tests read (libs/contract/vectors, civicrm-extension/tests/phpunit/
 * Civi/CheckinMiddleware/ContractVectorsTest.php): a change on one side that the other does not make
 * fails here or there.
 */
const VECTORS = join(__dirname, '..', '..', '..', 'libs', 'contract', 'vectors');
const vectors = <T>(name: string): T => JSON.parse(readFileSync(join(VECTORS, `${name}.json`), 'utf8')) as T;

interface FileLinkVectors {
  signatures: {
    name: string;
    key: string;
    fileId: number;
    expires: number;
    message: string;
    signature: string;
  }[];
  links: {
    name: string;
    baseUrl: string;
    route: string | null;
    key: string;
    fileId: number;
    nowSeconds: number;
    url: string;
  }[];
}
interface StaffLinkVectors {
  tokens: {
    name: string;
    key: string;
    staffContactId: number;
    orgId: number;
    expiresAt: number;
    token: string;
  }[];
  staffPages: { name: string; serviceUrl: string; orgId: number; token: string; url: string }[];
}
interface PersonalLinkVectors {
  exampleChecksum: string;
  links: {
    name: string;
    serviceUrl: string;
    contactId: number;
    organizationIds: number[];
    formUrl: string;
    reportUrl: string;
  }[];
}

describe('the service–extension contract (libs/contract/vectors)', () => {
  describe('staff file links', () => {
    const { signatures, links } = vectors<FileLinkVectors>('file-links');

    it.each(signatures)('signs $name as the extension checks it', (vector) => {
      expect(fileLinkMessage(vector.fileId, vector.expires)).toBe(vector.message);
      expect(fileLinkSignature(vector.key, vector.fileId, vector.expires)).toBe(vector.signature);
    });

    it.each(links)('builds the link of $name', (vector) => {
      const built = signedFileLinks([vector.fileId], {
        baseUrl: vector.baseUrl,
        ...(vector.route ? { route: vector.route } : {}),
        key: vector.key,
        nowSeconds: vector.nowSeconds,
      });
      expect(built.get(vector.fileId)).toBe(vector.url);
    });
  });

  describe('staff link tokens (csl1)', () => {
    const { tokens, staffPages } = vectors<StaffLinkVectors>('staff-links');

    it.each(tokens)('accepts the token the extension mints for $name, with its claims', (vector) => {
      const justBefore = new Date((vector.expiresAt - 60) * 1000);
      expect(verifyStaffLink(vector.token, vector.key, justBefore)).toEqual({
        accepted: true,
        claims: { staffContactId: vector.staffContactId, orgId: vector.orgId, expiresAt: vector.expiresAt },
      });
      // The service's own minting (its tests use it) spells the token as the extension does.
      expect(mintStaffLink(vector, vector.key)).toBe(vector.token);
    });

    it.each(staffPages)('reads the organization and the token from $name', (vector) => {
      const url = new URL(vector.url);
      expect(url.pathname).toBe('/staff');
      expect(url.searchParams.get('orgId')).toBe(String(vector.orgId));
      expect(url.searchParams.get('key')).toBe(vector.token);
    });
  });

  describe('personal links', () => {
    const { exampleChecksum, links } = vectors<PersonalLinkVectors>('personal-links');
    const withChecksum = (url: string) => url.replace('{checksum}', exampleChecksum);

    it.each(links)('reads contactId, orgId, cid and cs from the links of $name', (vector) => {
      for (const [link, path] of [
        [vector.formUrl, '/'],
        [vector.reportUrl, '/report'],
      ] as const) {
        const url = new URL(withChecksum(link));
        expect(url.pathname.endsWith(path)).toBe(true);
        expect(url.searchParams.get('contactId')).toBe(String(vector.contactId));
        expect(url.searchParams.get('cid')).toBe(String(vector.contactId));
        expect(url.searchParams.get('cs')).toBe(exampleChecksum);
        expect(url.searchParams.get('orgId')).toBe(
          vector.organizationIds.length === 1 ? String(vector.organizationIds[0]) : null,
        );
      }
    });

    it.each(links.filter((vector) => vector.organizationIds.length === 1))(
      'formats the preview links of $name as the extension formats its tokens',
      (vector) => {
        const preview = previewLinks({
          publicBaseUrl: vector.serviceUrl.replace(/\/$/, ''),
          contactId: vector.contactId,
          orgId: vector.organizationIds[0] as number,
          checksum: exampleChecksum,
          expiresAt: null,
        });
        expect(preview.formUrl).toBe(withChecksum(vector.formUrl));
        expect(preview.reportUrl).toBe(withChecksum(vector.reportUrl));
      },
    );
  });
});
