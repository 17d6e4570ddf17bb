import type { IncomingMessage } from 'node:http';
import { isPlainObject } from '../model/values';
import type { EmulatorFault, Form, RecordedCall, Route } from './emulator-types';
import { flattenHeaders, parseBatch, safeParams, v3Params } from './wire';

/** What the emulator records of each request, and which injected fault a request meets. */

/** The calls one request makes: one per batch entry, else one. */
export function recordedCalls(
  route: Exclude<Route, { kind: 'file' | 'checkInFile' | 'page' }>,
  request: IncomingMessage,
  url: URL,
  form: Form,
): RecordedCall[] {
  const base = {
    method: request.method ?? 'GET',
    path: url.pathname,
    headers: flattenHeaders(request.headers),
    status: 0,
    at: Date.now(),
  };
  let records: RecordedCall[];
  if (route.kind === 'api4') {
    records = [
      {
        ...base,
        version: 4,
        entity: route.entity,
        action: route.action,
        params: safeParams(form.get('params')),
      },
    ];
  } else if (route.kind === 'batch') {
    const calls = parseBatch(form.get('calls')) ?? [];
    records = calls.map(([batchKey, call]) => ({
      ...base,
      version: 4 as const,
      entity: call.entity,
      action: call.action,
      params: isPlainObject(call.params) ? call.params : {},
      batchKey,
    }));
    if (records.length === 0) records = [{ ...base, version: 4, entity: '', action: '', params: {} }];
  } else {
    records = [
      {
        ...base,
        version: 3,
        entity: form.get('entity') ?? '',
        action: form.get('action') ?? '',
        params: v3Params(form) ?? {},
      },
    ];
  }
  return records;
}

export function takeFault(
  faults: EmulatorFault[],
  version: 3 | 4,
  records: RecordedCall[],
): EmulatorFault | undefined {
  const fault = faults.find(
    (candidate) =>
      (candidate.kind !== 'v3error' || version === 3) &&
      records.some(
        (call) =>
          (candidate.entity === undefined || candidate.entity === call.entity) &&
          (candidate.action === undefined || candidate.action === call.action),
      ),
  );
  if (fault?.times !== undefined) {
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
  }
  return fault;
}
