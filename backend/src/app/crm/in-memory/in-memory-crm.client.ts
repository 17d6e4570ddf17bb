import {
  type Api4Call,
  type Api4CallResult,
  type Api4Params,
  batchOneByOne,
  type CrmClient,
  type CrmRow,
  type NewCrmFile,
} from '../crm-client';
import { CrmError, type CrmFailure, normalizeV3Values } from '../crm-errors';
import { Api4Error, type CallContext, type CiviCrmModel, type V3Envelope } from '@checkin/civicrm-fake';

export interface InMemoryCrmClientOptions {
  /** Delay before every answer, so demos show loading states as a real CRM would. */
  latencyMs?: number;
}

/**
 * The CRM of stub mode: the in-memory CiviCRM model behind the same interface and the same
 * error mapping as the live client (CiviCrmHttpClient), so routes run identical logic.
 */
export class InMemoryCrmClient implements CrmClient {
  private readonly latencyMs: number;

  constructor(
    readonly model: CiviCrmModel,
    options: InMemoryCrmClientOptions = {},
  ) {
    this.latencyMs = options.latencyMs ?? 0;
  }

  get fileBaseUrl(): string {
    return this.model.baseUrl;
  }

  /**
   * Stub mode's demo takes the short checksum `demo` (docs/decisions.md, "Stub mode"): any
   * checksum without white space or control characters, up to 200 characters, is asked of the model.
   */
  readonly checksumShape = /^[^\s\p{Cc}]{1,200}$/u;

  api4<T extends CrmRow = CrmRow>(entity: string, action: string, params: Api4Params = {}): Promise<T[]> {
    return this.call<T>(entity, action, params, {});
  }

  /** The model answers at no cost per request: the calls run one by one, in order, each settled alone. */
  batch(calls: Readonly<Record<string, Api4Call>>): Promise<Record<string, Api4CallResult>> {
    return batchOneByOne(this, calls);
  }

  private async call<T extends CrmRow>(
    entity: string,
    action: string,
    params: Api4Params,
    context: CallContext,
  ): Promise<T[]> {
    await this.delay();
    try {
      return this.model.api4(entity, action, params, context) as T[];
    } catch (error) {
      if (!(error instanceof Api4Error)) throw error;
      // The live client reports the HTTP status; the model's reason helps whoever reads the log.
      throw new CrmError(
        failureForStatus(error.status),
        `${entity}.${action}`,
        `HTTP ${error.status} (${error.message})`,
        error.status,
      );
    }
  }

  createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]> {
    const content = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    // Marked as the live client marks it (X-Checkin-Content-Encoding), so the extension decodes.
    return this.call<T>(
      'File',
      'create',
      { values: { file_name: file.fileName, mime_type: file.mimeType, content: content.toString('base64') } },
      { contentEncoding: 'base64' },
    );
  }

  async api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    await this.delay();
    let envelope: V3Envelope;
    try {
      envelope = this.model.api3(entity, action, params);
    } catch (error) {
      if (!(error instanceof Api4Error)) throw error;
      // CiviCRM died (HTTP 500 page): the live client sees the status, not an envelope.
      throw new CrmError(
        'failed',
        `v3 ${entity}.${action}`,
        `HTTP ${error.status} (${error.message})`,
        error.status,
      );
    }
    if (envelope.is_error) {
      throw new CrmError(
        'failed',
        `v3 ${entity}.${action}`,
        `the CRM reported an error (is_error): ${envelope.error_message}`,
      );
    }
    return normalizeV3Values<T>(envelope.values);
  }

  private delay(): Promise<void> {
    if (this.latencyMs <= 0) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}

function failureForStatus(status: number): CrmFailure {
  return status === 401 || status === 403 ? 'unauthorized' : 'failed';
}
