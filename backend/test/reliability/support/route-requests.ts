import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../../src/app/crm/in-memory/demo-data';
import { ownerQuery, TEST_ADMIN_KEY, TEST_STAFF_KEY } from '../../support/test-app';

/**
 * Ready-made valid requests for every route, shared by the reliability suites and the
 * benchmarks: what a browser, a staff member, an admin and a load balancer send.
 */

/** Limits high enough that a suite's own traffic is never what gets refused. */
export const UNLIMITED_RATE_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_READS_PER_MINUTE: '100000000',
  RATE_LIMIT_SUBMITS_PER_MINUTE: '100000000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '100000000',
  RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '100000000',
  RATE_LIMIT_READY_PROBES_PER_MINUTE: '100000000',
  RATE_LIMIT_CHECKSUM_FAILURES: '100000000',
};

export const ROUTE_NAMES = [
  'data',
  'submit',
  'upload',
  'report',
  'staffReport',
  'ready',
  'previewLink',
] as const;

export type RouteName = (typeof ROUTE_NAMES)[number];

export interface OwnerLink {
  cid: number;
  cs: string;
  contactId?: number;
  orgId?: number;
}

/** The demo person's form link (docs/decisions.md, "Personal links"). */
export const DEMO_LINK: OwnerLink = {
  contactId: DEMO_PERSON_ID,
  orgId: DEMO_ORG_ID,
  cid: DEMO_PERSON_ID,
  cs: DEMO_CHECKSUM,
};

export interface RouteRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** The status a valid request of each route answers. */
export const SUCCESS_STATUS: Readonly<Record<RouteName, number>> = {
  data: 200,
  submit: 201,
  upload: 201,
  report: 200,
  staffReport: 200,
  ready: 200,
  previewLink: 200,
};

/** A field of each side, so a submit writes the organization and then creates the check-in. */
const SUBMIT_VALUES = { Equity_share: 150, Steering_committee_size: 9 } as const;

const UPLOAD_FIELD_REF = 'Certificate_of_Incorporation';

const SAMPLE_PDF = readFileSync(join(__dirname, '..', '..', 'fixtures', 'files', 'sample.pdf'));

/** A valid request of `route`; owner routes use `link`. Each submit carries a new submissionId. */
export function routeRequest(route: RouteName, link: OwnerLink = DEMO_LINK): RouteRequest {
  switch (route) {
    case 'data':
      return get(`/api/data?${linkQuery(link)}`);
    case 'report':
      return get(`/api/report?${linkQuery(link)}`);
    case 'submit':
      return submitRequest(link);
    case 'upload':
      return uploadRequest(link, samplePdf(SAMPLE_PDF.byteLength));
    case 'staffReport':
      return get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY });
    case 'ready':
      return get('/api/health/ready');
    case 'previewLink':
      return postJson('/api/preview-link', { contactId: DEMO_PERSON_ID }, { 'X-Admin-Key': TEST_ADMIN_KEY });
  }
}

function linkQuery(link: OwnerLink): string {
  return ownerQuery({ ...link });
}

export interface SubmitOptions {
  /** A retry of the same submission sends the same id. */
  submissionId?: string;
  values?: Record<string, unknown>;
}

/** The body of docs/decisions.md, "Submit body": the link, a submissionId and the values. */
export function submitRequest(link: OwnerLink = DEMO_LINK, options: SubmitOptions = {}): RouteRequest {
  const { submissionId = randomUUID(), values = SUBMIT_VALUES } = options;
  return postJson('/api/submit', { ...link, submissionId, values });
}

export function uploadRequest(link: OwnerLink, pdf: Buffer): RouteRequest {
  const { body, contentType } = multipartBody(
    { cid: String(link.cid), cs: link.cs, fieldRef: UPLOAD_FIELD_REF },
    { name: 'file', filename: 'certificate.pdf', contentType: 'application/pdf', bytes: pdf },
  );
  return { method: 'POST', path: '/api/upload', headers: { 'Content-Type': contentType }, body };
}

/**
 * A genuine PDF (the fixture) grown to `size` bytes with a trailing comment of random text:
 * PDF readers ignore what follows %%EOF, and file-type still reads it as a PDF.
 */
export function samplePdf(size: number): Buffer {
  if (size <= SAMPLE_PDF.byteLength) return SAMPLE_PDF.subarray(0, Math.max(size, 0));
  const paddingLength = size - SAMPLE_PDF.byteLength;
  const text = randomBytes(Math.ceil((paddingLength * 3) / 4)).toString('base64');
  const padding = Buffer.from(`\n%${text}`.slice(0, paddingLength), 'latin1');
  return Buffer.concat([SAMPLE_PDF, padding]);
}

export interface MultipartFile {
  name: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body written by hand, so tests control every byte of it. */
export function multipartBody(
  fields: Record<string, string>,
  file?: MultipartFile,
  boundary = `----reliability${randomBytes(12).toString('hex')}`,
): { body: Buffer; contentType: string } {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface TimedResponse {
  status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
  headers: Headers;
  elapsedMs: number;
}

/** Sends `request` to the service at `baseUrl` and reads the whole answer. */
export async function send(baseUrl: string, request: RouteRequest): Promise<TimedResponse> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  const elapsedMs = performance.now() - started;
  return { status: response.status, body: parseJson(text), headers: response.headers, elapsedMs };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function get(path: string, headers: Record<string, string> = {}): RouteRequest {
  return { method: 'GET', path, headers };
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}): RouteRequest {
  return {
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
