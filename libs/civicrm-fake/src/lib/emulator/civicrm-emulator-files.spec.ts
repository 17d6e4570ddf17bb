import { CiviCrmEmulator, DEFAULT_EMULATOR_LOGIN } from '../../emulator';
import { ORG_ID, createSampleModel } from '../spec-support/sample-site';
import { ANONYMOUS, API_KEY, samplePerson, sampleEmulatorPerFile } from '../spec-support/emulator-specs';

describe('the HTTP emulator: APIv3 and files', () => {
  const site = sampleEmulatorPerFile();
  const { api3, api4 } = site;

  describe('APIv3 and files', () => {
    /** The sample organization's certificate: a file held by a custom field. */
    const fileId = () =>
      Number(
        site.emulator.model.api4('Contact', 'get', {
          select: ['Food_Co_op_Organizing.Certificate_of_Incorporation'],
          where: [['id', '=', ORG_ID]],
        })[0]?.['Food_Co_op_Organizing.Certificate_of_Incorporation'],
      );
    const login = async (password: string = DEFAULT_EMULATOR_LOGIN.password) => {
      const response = await api4(
        'User',
        'login',
        { identifier: DEFAULT_EMULATOR_LOGIN.username, password },
        { headers: ANONYMOUS },
      );
      return { response, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
    };

    it('dies with an HTML error page (HTTP 500) on Attachment.get with id IN', async () => {
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: { IN: [fileId()] }, return: 'id,url', sequential: 1 }),
      });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain(
        'htmlentities(): Argument #1 ($string) must be of type string, array given',
      );
      expect(site.emulator.calls).toEqual([
        expect.objectContaining({ version: 3, entity: 'Attachment', action: 'get', status: 500 }),
      ]);
    });

    it('answers Attachment.get for one id with a signed url that serves the file to a logged-in user', async () => {
      const id = fileId();
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id, return: 'id,url', sequential: 1 }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { values: Array<{ url: string }> };
      expect(body).toMatchObject({
        is_error: 0,
        version: 3,
        count: 1,
        values: [
          {
            id: String(id),
            url: expect.stringContaining(`${site.emulator.baseUrl}/civicrm/file?reset=1&id=${id}&fcs=`),
          },
        ],
      });
      const url = body.values[0]?.url ?? '';
      expect((await fetch(url)).status).toBe(403);
      const { response: loggedIn, cookie } = await login();
      expect(await loggedIn.json()).toMatchObject({ values: { url: '/civicrm/home' } });
      const file = await fetch(url, { headers: { Cookie: cookie } });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(
        'download; filename="Riverbend_certificate_of_incorporation.pdf"',
      );
      expect(Buffer.from(await file.arrayBuffer())).toEqual(site.emulator.model.getFile(id)?.content);
      // authx: the API key opens the page as well.
      expect((await fetch(url, { headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` } })).status).toBe(200);
    });

    it('answers a file address without fcs with 500 and a forged one with a bounce, even when logged in', async () => {
      const { cookie } = await login();
      const base = `${site.emulator.baseUrl}/civicrm/file?reset=1&id=${fileId()}`;
      const unsigned = await fetch(base, { headers: { Cookie: cookie } });
      expect(unsigned.status).toBe(500);
      const forged = await fetch(`${base}&fcs=forged`, { headers: { Cookie: cookie }, redirect: 'manual' });
      expect(forged.status).toBe(302);
      expect(forged.headers.get('location')).toBe(`${site.emulator.baseUrl}/`);
    });

    it('lets a logged-in session call the API with X-Requested-With, as the back office does', async () => {
      const { cookie } = await login();
      const withSession = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: cookie },
      });
      expect(await withSession.json()).toMatchObject({ count: 1 });
      const forged = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: 'SESSCIVISO=forged' },
      });
      expect(await forged.json()).toMatchObject({ count: 0 });
      site.emulator.reset();
      const afterReset = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: cookie },
      });
      expect(await afterReset.json()).toMatchObject({ count: 0 });
    });

    it('refuses a wrong password without a session', async () => {
      const { response, cookie } = await login('wrong');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ values: { publicError: 'Invalid credentials' } });
      expect(cookie).toBe('');
    });

    it('serves the extension route to a logged-in user: the bytes, 404 for an unknown id, 403 when anonymous', async () => {
      const id = fileId();
      const { cookie } = await login();
      const file = await fetch(`${site.emulator.baseUrl}/civicrm/checkin-file?id=${id}`, {
        headers: { Cookie: cookie },
      });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(site.emulator.model.getFile(id)?.content);
      const byPath = await fetch(`${site.emulator.baseUrl}/civicrm/checkin-file/${id}`, {
        headers: { Cookie: cookie },
      });
      expect(byPath.status).toBe(200);
      expect(
        (
          await fetch(`${site.emulator.baseUrl}/civicrm/checkin-file?id=99999`, {
            headers: { Cookie: cookie },
          })
        ).status,
      ).toBe(404);
      expect((await fetch(`${site.emulator.baseUrl}/civicrm/checkin-file?id=${id}`)).status).toBe(403);
    });

    it('serves the extension route only to users with "access uploaded files"', async () => {
      const limited = await CiviCrmEmulator.start({
        createModel: createSampleModel,
        apiKey: API_KEY,
        apiUsers: { 'staff-key': { permissions: ['authenticate with api key', 'access CiviCRM'] } },
      });
      try {
        const url = `${limited.baseUrl}/civicrm/checkin-file?id=${fileId()}`;
        expect((await fetch(url, { headers: { 'X-Civi-Auth': 'Bearer staff-key' } })).status).toBe(403);
        expect((await fetch(url, { headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` } })).status).toBe(200);
      } finally {
        await limited.stop();
      }
    });

    it('answers an array-valued return with HTTP 200 and is_error', async () => {
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: fileId(), return: ['id', 'url'] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        is_error: 1,
        error_message: expect.stringContaining('must be of type string, array given'),
      });
    });

    it('keeps the v3 envelope for a missing X-Requested-With without a key, and the 401 for bad credentials', async () => {
      const fields = { entity: 'Attachment', action: 'get', json: JSON.stringify({ id: fileId() }) };
      const csrf = await api3(fields, {});
      expect(csrf.status).toBe(200);
      expect(await csrf.json()).toMatchObject({ is_error: 1 });
      expect((await api3(fields, { ...ANONYMOUS, 'X-Civi-Auth': 'Bearer wrong' })).status).toBe(401);
      // Anonymous: civicrm/ajax/rest needs "access CiviCRM", so Standalone shows its login page.
      const anonymous = await api3(fields, ANONYMOUS);
      expect(anonymous.status).toBe(403);
      expect(await anonymous.text()).toContain('You need to be logged in to access this page.');
    });
  });
});
