import { HttpEventType } from '@angular/common/http';
import type { SubmitRequest } from '@checkin/contract';
import { formPayload } from './testing/form-payload.fixture';
import {
  byId,
  button,
  click,
  closeOpenedPage,
  expectSubmit,
  KEY,
  loaded,
  type Page,
  submit,
} from './testing/form-page-harness';

afterEach(closeOpenedPage);

describe('FormPage: file fields', () => {
  async function pick(page: Page, id: string, file: File): Promise<void> {
    const input = byId(page, id);
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change'));
    await page.fixture.whenStable();
  }

  const study = new File(['%PDF-1.4'], 'study.pdf', { type: 'application/pdf' });

  it('uploads a picked file at once with progress, and holds submit until it is stored', async () => {
    const page = await loaded(formPayload(3));
    await pick(page, 'field-Feasibility_study', study);

    const upload = page.http.expectOne('/api/upload');
    expect((upload.request.body as FormData).get('fieldRef')).toBe('Feasibility_study');
    expect(page.root.textContent).toContain('Uploading study.pdf');
    const send = button(page, 'Review and send');
    expect(send.disabled).toBe(true);
    expect(send.getAttribute('aria-describedby')).toBe('submit-reason');
    expect(byId(page, 'submit-reason').textContent).toContain('Wait for the file upload to finish');

    upload.event({ type: HttpEventType.UploadProgress, loaded: 4, total: 8 });
    await page.fixture.whenStable();
    expect(page.root.querySelector('progress')?.getAttribute('value')).toBe('50');

    upload.flush({ id: 41, file_name: 'study.pdf' });
    await page.fixture.whenStable();
    expect(byId(page, 'field-Feasibility_study-group').textContent?.replace(/\s+/g, ' ')).toContain(
      'Stored file: study.pdf',
    );
    expect(send.disabled).toBe(false);
    expect(page.storage.getItem(KEY)).toContain('"Feasibility_study":{"id":41,"file_name":"study.pdf"}');

    await submit(page);
    const request = expectSubmit(page);
    expect((request.request.body as SubmitRequest).values['Feasibility_study']).toEqual({
      id: 41,
      file_name: 'study.pdf',
    });
    request.flush({ activityId: 903, submittedAt: '2026-11-21T12:07:00Z' });
  });

  it('refuses a file of the wrong type before uploading, at the field', async () => {
    const page = await loaded(formPayload(3));
    await pick(
      page,
      'field-Feasibility_study',
      new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }),
    );
    page.http.expectNone('/api/upload');
    const input = byId(page, 'field-Feasibility_study');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(byId(page, 'field-Feasibility_study-upload-error').textContent).toContain('not a type of file');
  });

  it('shows the server’s refusal at the field', async () => {
    const page = await loaded(formPayload(3));
    await pick(page, 'field-Feasibility_study', study);
    page.http.expectOne('/api/upload').flush(
      {
        statusCode: 415,
        code: 'FILE_CONTENT_MISMATCH',
        message: 'The file’s content does not match its type.',
      },
      { status: 415, statusText: 'Unsupported Media Type' },
    );
    await page.fixture.whenStable();
    expect(byId(page, 'field-Feasibility_study-upload-error').textContent).toContain(
      'study.pdf was not uploaded. The file’s content does not match its type.',
    );
    expect(button(page, 'Review and send').disabled).toBe(false);
  });

  it('removes a stored file with its button', async () => {
    const page = await loaded(formPayload(3));
    await click(page, button(page, 'Remove'));
    expect(byId(page, 'field-Certificate_of_Incorporation').hidden).toBe(false);
    await submit(page);
    const request = expectSubmit(page);
    expect((request.request.body as SubmitRequest).values['Certificate_of_Incorporation']).toBeNull();
    request.flush({ activityId: 904, submittedAt: '2026-11-21T12:08:00Z' });
  });
});
