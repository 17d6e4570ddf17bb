import type { ErrorBody, UploadResponse } from '@checkin/contract';
import { CRM_CLIENT } from '../src/app/crm/crm-client';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import type { InMemoryCrmClient } from '../src/app/crm/in-memory/in-memory-crm.client';
import { SLOW_WINDOW_MS } from '../src/app/upload/upload-form';
import { UploadGate } from '../src/app/upload/upload-gate';
import { ownerQuery, startTestApp } from './support/test-app';
import { fixture, PDF, postUpload, stalledUpload, UPLOAD_LINK, waitFor } from './support/upload-requests';
import { sharedTestApp } from './support/shared-app';

/**
 * What keeps uploads from being abused (docs/decisions.md, "Limits"): the per-link and per-address
 * rate limits, the cap on uploads in flight, the deadlines for a body that stalls; and the upload
 * route in stub mode, which has no CRM to protect.
 */
describe('POST /api/upload rate limit', () => {
  const service = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1' },
    },
    { resetEmulator: false },
  );

  function upload(fieldRef: string) {
    return postUpload(service.url, {
      fieldRef,
      file: { bytes: fixture('sample.pdf'), name: 'a.pdf', type: PDF },
    });
  }

  it('answers 429 with Retry-After after the limit, before looking at the field, and writes nothing', async () => {
    expect((await upload('Business_plan')).status).toBe(201);
    service.emulator.clearCalls();

    const response = await upload('Not_a_file_field');

    expect(response.status).toBe(429);
    expect(((await response.json()) as ErrorBody).code).toBe('RATE_LIMITED');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(service.emulator.writes()).toEqual([]);
  });
});

describe('POST /api/upload in stub mode', () => {
  const service = sharedTestApp({ stub: true }, { resetEmulator: false });

  it('stores the file in the built-in CRM', async () => {
    const bytes = fixture('sample.jpg');

    const response = await postUpload(service.url, {
      file: { bytes, name: 'certificate.jpg', type: 'image/jpeg' },
    });

    expect(response.status).toBe(201);
    const file = (await response.json()) as UploadResponse;
    const crm = service.app.get<InMemoryCrmClient>(CRM_CLIENT);
    expect(crm.model.getFile(file.id)?.content.equals(bytes)).toBe(true);
    expect(service.emulator.calls).toEqual([]);
  });
});

describe('POST /api/upload under abuse', () => {
  it('refuses uploads beyond UPLOAD_MAX_IN_FLIGHT with 429 and Retry-After, before reading them', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { UPLOAD_MAX_IN_FLIGHT: '2' },
    });
    try {
      // The link's access is checked and cached first, so the stalled uploads make no CRM call
      // that could land after clearCalls below and be taken for the refused request's.
      expect((await service.get(`/api/data?${ownerQuery(UPLOAD_LINK)}`)).status).toBe(200);
      const stalled = [stalledUpload(service.url), stalledUpload(service.url)];
      try {
        await waitFor(() => service.app.get(UploadGate).current === 2);
        service.emulator.clearCalls();
        const refused = await service.post('/api/upload', { not: 'even multipart' });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await refused.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
        expect(service.emulator.calls).toEqual([]);
      } finally {
        stalled.forEach((upload) => upload.stop());
      }
      await waitFor(() => service.app.get(UploadGate).current === 0);
      const plan = { bytes: fixture('sample.pdf'), name: 'plan.pdf', type: PDF };
      expect((await postUpload(service.url, { fieldRef: 'Business_plan', file: plan })).status).toBe(201);
    } finally {
      await service.close();
    }
  });

  it('limits upload requests per address before reading the body', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '3' },
    });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        statuses.push((await service.post('/api/upload', { not: 'multipart' })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await service.close();
    }
  });

  it('answers 408 with the error body when the body has not arrived within UPLOAD_DEADLINE_MS', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { UPLOAD_DEADLINE_MS: '1000', UPLOAD_MIN_BYTES_PER_SECOND: '0' },
    });
    const started = Date.now();
    const upload = stalledUpload(service.url, { everyMs: 100 });
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT' });
      expect(answer.at - started).toBeLessThan(2_500);
      expect(service.emulator.writes()).toEqual([]);
    } finally {
      upload.stop();
      await service.close();
    }
  });

  it('cuts a body trickling below UPLOAD_MIN_BYTES_PER_SECOND long before the deadline', async () => {
    const service = await startTestApp({ emulator: { model: createDemoModel() } });
    const started = Date.now();
    const upload = stalledUpload(service.url, { everyMs: 500 });
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(answer.at - started).toBeLessThan(2 * SLOW_WINDOW_MS + 1_000);
    } finally {
      upload.stop();
      await service.close();
    }
  }, 20_000);
});
