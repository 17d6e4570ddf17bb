import { fileHref, type FileLinkContext } from './file-link';

const CRM = 'https://crm.example.org';
const plain: FileLinkContext = { crmBaseUrl: CRM, fileRouteTemplate: null };
const withRoute: FileLinkContext = { crmBaseUrl: CRM, fileRouteTemplate: '/civicrm/checkin-file/{id}' };
const signed = 'https://crm.example.org/civicrm/file?reset=1&id=7&fcs=abc_1_inf';

describe('fileHref', () => {
  it('prefers the signed url from the CRM, absolute as it is', () => {
    expect(fileHref({ id: 7, url: signed }, withRoute)).toBe(signed);
    expect(fileHref({ id: 7, url: 'http://other.example.net/f/7' }, plain)).toBe(
      'http://other.example.net/f/7',
    );
  });

  it('resolves a relative url against CRM_BASE_URL', () => {
    expect(fileHref({ id: 7, url: 'civicrm/file?reset=1&id=7&fcs=x' }, plain)).toBe(
      'https://crm.example.org/civicrm/file?reset=1&id=7&fcs=x',
    );
    expect(fileHref({ id: 7, url: 'civicrm/file?id=7' }, { ...plain, crmBaseUrl: `${CRM}/drupal` })).toBe(
      'https://crm.example.org/drupal/civicrm/file?id=7',
    );
    expect(fileHref({ id: 7, url: '/drupal/civicrm/file?id=7' }, plain)).toBe(
      'https://crm.example.org/drupal/civicrm/file?id=7',
    );
  });

  it('falls back to the extension route when there is no url', () => {
    expect(fileHref({ id: 7 }, withRoute)).toBe('https://crm.example.org/civicrm/checkin-file/7');
    expect(
      fileHref({ id: 7 }, { crmBaseUrl: null, fileRouteTemplate: 'https://files.example.org/{id}/open' }),
    ).toBe('https://files.example.org/7/open');
  });

  it('falls back last to the bare CRM file address with reset=1 and the id', () => {
    expect(fileHref({ id: 7, file_name: 'plan.pdf' }, plain)).toBe(
      'https://crm.example.org/civicrm/file?reset=1&id=7',
    );
    expect(fileHref({ id: 7 }, { crmBaseUrl: `${CRM}/wp/`, fileRouteTemplate: null })).toBe(
      'https://crm.example.org/wp/civicrm/file?reset=1&id=7',
    );
  });

  it('skips a relative url or route it cannot resolve, and gives up without a base', () => {
    const noBase: FileLinkContext = { crmBaseUrl: null, fileRouteTemplate: '/civicrm/checkin-file/{id}' };
    expect(fileHref({ id: 7, url: 'civicrm/file?id=7' }, noBase)).toBeNull();
    expect(
      fileHref(
        { id: 7, url: 'civicrm/file?id=7' },
        { ...noBase, fileRouteTemplate: 'https://f.example.org/{id}' },
      ),
    ).toBe('https://f.example.org/7');
  });

  it('never links to an address that is not http or https', () => {
    expect(fileHref({ id: 7, url: 'javascript:alert(1)' }, plain)).toBe(
      'https://crm.example.org/civicrm/file?reset=1&id=7',
    );
    expect(fileHref({ id: 7 }, { crmBaseUrl: 'ftp://crm.example.org', fileRouteTemplate: null })).toBeNull();
  });
});
