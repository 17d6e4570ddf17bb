import type { FieldConfig } from '@checkin/contract';
import fc from 'fast-check';
import {
  DEMO_CHECKSUM,
  DEMO_OPTIONS,
  INACTIVE_PERSON_CHECKSUM,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_CHECKSUM,
  OTHER_ORG_ID,
  OTHER_PERSON_CHECKSUM,
  OTHER_PERSON_ID,
  REVERSED_PERSON_CHECKSUM,
} from '../../../src/app/crm/in-memory/demo-data';
import { SUBMITTABLE_FIELDS, UPLOAD_FIELD_REFS } from '../../../src/app/fields/field-config';
import { TEST_ADMIN_KEY, TEST_STAFF_KEY } from '../../support/test-app';
import { DEMO_LINK, multipartBody, type RouteRequest } from './route-requests';

/**
 * fast-check arbitraries of requests no route should accept: link parameters of every wrong
 * shape with checksums the CRM never issued, bodies of wrong shapes and types, prototype
 * pollution keys, wrong content types and broken multipart. None of them may lead to a write.
 */

/** Every checksum the demo data accepts (the service trims what it is given). */
const VALID_CHECKSUMS = new Set([
  DEMO_CHECKSUM,
  OTHER_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_CHECKSUM,
  INACTIVE_PERSON_CHECKSUM,
  REVERSED_PERSON_CHECKSUM,
]);

const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__defineGetter__',
];

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  unicodeText,
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** What a client might put where an id belongs. */
const idLike: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e309',
    '0x66',
    ' 102 ',
    '102abc',
    '1.0',
    'NaN',
    'Infinity',
    '9'.repeat(40),
  ),
  anyText,
);

/** Checksums the CRM never issued: random text, look-alikes, CiviCRM-shaped forgeries. */
const badChecksum: fc.Arbitrary<string> = fc
  .oneof(
    anyText,
    fc.constantFrom(
      'demo ',
      'DEMO',
      'demo\u0000',
      'demo\n',
      '../../etc/passwd',
      "' OR 1=1 --",
      'a'.repeat(500),
    ),
    fc
      .tuple(
        fc.stringMatching(/^[0-9a-f]{32}$/),
        fc.nat(),
        fc.oneof(fc.nat().map(String), fc.constant('inf')),
      )
      .map(([hash, timestamp, live]) => `${hash}_${timestamp}_${live}`),
  )
  .filter((checksum) => !VALID_CHECKSUMS.has(checksum.trim()));

const linkKey = fc.oneof(
  fc.constantFrom('cid', 'cs', 'contactId', 'orgId', 'cid[]', 'cs[0]', 'orgId[]'),
  fc.constantFrom(...POLLUTION_KEYS),
  fc.string({ maxLength: 12 }),
);

/** Raw fragments a hand-written query string may hold: stray separators, broken escapes. */
const rawQueryFragment = fc.constantFrom(
  '%',
  '%zz',
  '%C0%AF',
  '%00',
  '&&',
  '==',
  '=',
  '?',
  '#',
  '%E0%A4%A',
  '+',
);

/** A query string with link parameters of every shape, repeated keys and broken escapes. */
const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.tuple(linkKey, fc.oneof(idLike, badChecksum)).map(encodePair) },
      { weight: 3, arbitrary: badChecksum.map((cs) => `cs=${encodeURIComponent(cs)}`) },
      { weight: 1, arbitrary: rawQueryFragment },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join('&'));

function encodePair([key, value]: [string, string]): string {
  return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
}

/** Any JSON value, and objects shaped almost like a request body. */
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.oneof(linkKey, fc.constantFrom('values', 'submissionId')), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 8,
  }),
);

/** JSON text JSON.stringify would never write: pollution keys, huge numbers, deep nesting, junk. */
const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...POLLUTION_KEYS), badChecksum)
    .map(([key, cs]) => `{"${key}":{"polluted":true,"isAdmin":true},"cid":"102","cs":${JSON.stringify(cs)}}`),
  badChecksum.map(
    (cs) =>
      `{"cid":"102","cs":${JSON.stringify(cs)},"values":{"__proto__":{"polluted":true}},"submissionId":"x"}`,
  ),
  fc.constantFrom(
    '{"cid":1e400,"cs":"x"}',
    '{"cid":123456789012345678901234567890,"cs":"x","contactId":-0}',
    '{"contactId":1e400}',
    '{"contactId":102.5,"orgId":"101"}',
    `${'['.repeat(3000)}${']'.repeat(3000)}`,
    '{"a":'.repeat(500) + '1' + '}'.repeat(500),
    '{"cid":"102","cs":"demo"',
    "{'cid':'102'}",
    'null',
    '"just a string"',
    '\uFEFF{"cid":"102"}',
    '',
  ),
  anyText,
);

interface HostileBody {
  body: string | Buffer;
  /** Content-Type and Content-Encoding, often wrong for the body, sometimes absent. */
  headers: Record<string, string>;
}

/** A body, the type it claims (often a wrong one) and an encoding it may claim and not have. */
const hostileBody: fc.Arbitrary<HostileBody> = fc
  .record(
    {
      body: fc.oneof(
        jsonish.map((value) => JSON.stringify(value) ?? ''),
        hostileJsonText,
        fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'application/json; charset=koi8-r',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/xml',
      ),
      contentEncoding: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'x-unknown'),
    },
    { requiredKeys: ['body'] },
  )
  .map(({ body, contentType, contentEncoding }) => ({
    body,
    headers: {
      ...(contentType ? { 'Content-Type': contentType } : {}),
      ...(contentEncoding ? { 'Content-Encoding': contentEncoding } : {}),
    },
  }));

export const ownerReadRequest: fc.Arbitrary<RouteRequest> = fc
  .tuple(fc.constantFrom('/api/data', '/api/report'), hostileQuery)
  .map(([path, query]) => ({ method: 'GET', path: `${path}?${query}`, headers: {} }));

/** The demo person's valid checksum, with contactId and orgId of every shape and stray parameters. */
export const ownerReadWithValidChecksum: fc.Arbitrary<RouteRequest> = fc
  .tuple(
    fc.constantFrom('/api/data', '/api/report'),
    fc.option(fc.oneof(idLike, fc.constantFrom(String(DEMO_LINK.cid), String(OTHER_PERSON_ID))), { freq: 3 }),
    fc.option(
      fc.oneof(
        idLike,
        fc.constantFrom(String(DEMO_LINK.orgId), String(OTHER_ORG_ID), ...MULTI_ORG_IDS.map(String)),
      ),
      { freq: 3 },
    ),
    hostileQuery,
  )
  .map(([path, contactId, orgId, query]) => {
    const params = [`cid=${DEMO_LINK.cid}`, `cs=${encodeURIComponent(DEMO_LINK.cs)}`];
    if (contactId !== null) params.push(`contactId=${encodeURIComponent(contactId)}`);
    if (orgId !== null) params.push(`orgId=${encodeURIComponent(orgId)}`);
    return { method: 'GET', path: `${path}?${[...params, query].join('&')}`, headers: {} };
  });

export const submitRequestWithBadLink: fc.Arbitrary<RouteRequest> = hostileBody.map(({ body, headers }) => ({
  method: 'POST',
  path: '/api/submit',
  headers,
  body,
}));

/** A browser-printable header value: fetch refuses control characters. */
const headerValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', TEST_STAFF_KEY.slice(0, -1)));

/** No key, a random one, or the right one. */
function keyHeader(
  name: string,
  validKey: string,
  key: string | null,
  useValidKey: boolean,
): Record<string, string> {
  if (useValidKey) return { [name]: validKey };
  return key === null ? {} : { [name]: key };
}

export const staffReportRequest: fc.Arbitrary<RouteRequest> = fc
  .tuple(hostileQuery, idLike, fc.option(headerValue), fc.boolean())
  .map(([query, orgId, key, useValidKey]) => ({
    method: 'GET',
    path: `/api/staff/report?orgId=${encodeURIComponent(orgId)}&${query}`,
    headers: keyHeader('X-Staff-Key', TEST_STAFF_KEY, key, useValidKey),
  }));

export const previewLinkRequest: fc.Arbitrary<RouteRequest> = fc
  .tuple(hostileBody, fc.option(headerValue), fc.boolean())
  .map(([{ body, headers }, key, useValidKey]) => ({
    method: 'POST',
    path: '/api/preview-link',
    headers: { ...keyHeader('X-Admin-Key', TEST_ADMIN_KEY, key, useValidKey), ...headers },
    body,
  }));

export const healthRequest: fc.Arbitrary<RouteRequest> = fc
  .tuple(fc.constantFrom('/api/health', '/api/health/live', '/api/health/ready'), hostileQuery, idLike)
  .map(([path, query, contactId]) => ({
    method: 'GET',
    path: `${path}?contactId=${encodeURIComponent(contactId)}&${query}`,
    // Diagnostics need the admin key against a CRM: with it, the query itself is what is tried.
    headers: { 'X-Admin-Key': TEST_ADMIN_KEY },
  }));

const fileName = fc.oneof(
  anyText,
  fc.constantFrom('../../etc/passwd', '..\\..\\boot.ini', 'a'.repeat(400), 'x.pdf\u0000.exe', '', '.', '/'),
);

const declaredMime = fc.oneof(
  fc.constantFrom(
    'application/pdf',
    'image/png',
    'application/x-msdownload',
    'text/html',
    'image/svg+xml',
    '',
  ),
  fc.string({ maxLength: 30 }),
);

/** Multipart bodies with a bad checksum or a broken shape: no upload may reach the CRM. */
export const uploadRequest: fc.Arbitrary<RouteRequest> = fc.oneof(
  fc
    .record({
      cid: idLike,
      cs: badChecksum,
      fieldRef: fc.oneof(fc.constantFrom(...UPLOAD_FIELD_REFS, '__proto__', ''), anyText),
      bytes: fc.uint8Array({ maxLength: 512 }),
      name: fileName,
      mime: declaredMime,
      filePart: fc.constantFrom('file', 'files', 'FILE', ''),
    })
    .map(({ cid, cs, fieldRef, bytes, name, mime, filePart }) => {
      const { body, contentType } = multipartBody(
        { cid, cs, fieldRef },
        {
          name: filePart,
          filename: name.replace(/["\r\n]/g, ''),
          contentType: mime,
          bytes: Buffer.from(bytes),
        },
      );
      return { method: 'POST' as const, path: '/api/upload', headers: { 'Content-Type': contentType }, body };
    }),
  fc
    .tuple(
      hostileBody,
      fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed'),
    )
    .map(([{ body }, contentType]) => ({
      method: 'POST' as const,
      path: '/api/upload',
      headers: { 'Content-Type': contentType },
      body,
    })),
  fc.tuple(badChecksum, fc.nat({ max: 200 })).map(([cs, cut]) => {
    // A body cut short: the closing boundary never comes.
    const { body, contentType } = multipartBody(
      { cid: String(DEMO_LINK.cid), cs, fieldRef: 'Certificate_of_Incorporation' },
      { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n') },
    );
    return {
      method: 'POST' as const,
      path: '/api/upload',
      headers: { 'Content-Type': contentType },
      body: body.subarray(0, Math.max(0, body.byteLength - 1 - cut)),
    };
  }),
);

/** Any method on any path, known or not, with any body. */
export const strayRequest: fc.Arbitrary<RouteRequest> = fc
  .tuple(
    fc.constantFrom<RouteRequest['method']>('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    fc.constantFrom(
      '/api/data',
      '/api/submit',
      '/api/upload',
      '/api/report',
      '/api/staff/report',
      '/api/preview-link',
      '/api/health',
      '/api',
      '/api/',
      '/api/unknown',
      '/api/data/..%2f..%2fetc%2fpasswd',
      '/api/%2e%2e/%2e%2e/etc/passwd',
      '/api/submit%00',
      '/api/__proto__',
      '/api/report/..;/data',
    ),
    hostileQuery,
    hostileBody,
  )
  .map(([method, path, query, { body, headers }]) => ({
    method,
    path: `${path}?${query}`,
    headers: method === 'GET' || method === 'HEAD' ? {} : headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
  }));

// --- valid links, invalid values ----------------------------------------------------------------

const SUBMITTABLE_NAMES = new Set(SUBMITTABLE_FIELDS.map((field) => field.name));
const OPTION_VALUES = new Set(
  Object.values(DEMO_OPTIONS).flatMap((options) => options.map((option) => option.value)),
);
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

const nonEmptyText = fc.string({ minLength: 1, maxLength: 30 });
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant({}),
  fc.array(fc.integer(), { minLength: 1 }),
);
const notANumber = fc.oneof(
  nonEmptyText,
  fc.boolean(),
  fc.constant({}),
  fc.array(fc.integer(), { minLength: 1 }),
);

/** A value `field` must refuse, whatever the CRM's options (never null or '', which mean empty). */
function invalidValueFor(field: FieldConfig): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'number':
      return fc.oneof(notANumber, fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }));
    case 'currency':
    case 'percent':
      return notANumber;
    case 'date':
      return fc.oneof(
        notAString,
        nonEmptyText.filter((text) => !CALENDAR_DATE.test(text)),
        fc.constantFrom('2026-02-30', '2026-13-01', '2026-1-1'),
      );
    case 'boolean':
      return fc.oneof(nonEmptyText, fc.integer(), fc.constant({}));
    case 'select':
      return fc.oneof(
        notAString,
        nonEmptyText.filter((text) => !OPTION_VALUES.has(text)),
      );
    case 'multiselect':
      return fc.oneof(
        nonEmptyText,
        fc.integer(),
        fc.array(fc.integer(), { minLength: 1 }),
        fc.array(
          nonEmptyText.filter((text) => !OPTION_VALUES.has(text)),
          { minLength: 1 },
        ),
      );
    case 'file':
      return fc.oneof(
        nonEmptyText,
        fc.integer(),
        fc.record({
          id: fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true, noNaN: true }), nonEmptyText),
        }),
        fc.record({ id: fc.integer({ min: 1 }), extra: fc.integer() }),
      );
    case 'text':
      return fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant({}),
        fc.string({ minLength: (field.maxLength ?? 255) + 1, maxLength: (field.maxLength ?? 255) + 20 }),
      );
    case 'readonly':
      return fc.anything();
  }
}

/** A valid link and submissionId, and values with at least one invalid answer or unknown name. */
export const submitWithInvalidValues: fc.Arbitrary<{
  values: Record<string, unknown>;
  submissionId: string;
}> = fc.record({
  submissionId: fc.oneof(
    { weight: 4, arbitrary: fc.uuid({ version: 4 }) },
    { weight: 1, arbitrary: anyText },
  ),
  values: fc.oneof(
    fc
      .constantFrom(...SUBMITTABLE_FIELDS)
      .chain((field) => invalidValueFor(field).map((value) => ({ [field.name]: value }))),
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom(...POLLUTION_KEYS, 'first_name', 'email', 'current_stage', 'Stage'),
          fc.string({ maxLength: 20 }),
        ),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .filter(([name]) => !SUBMITTABLE_NAMES.has(name))
      .map(([name, value]) => Object.fromEntries([[name, value]])),
  ),
});
