import type { Api4Params, CrmClient, CrmRow, NewCrmFile } from '../crm-client';
import { CrmError, failureForStatus, normalizeV3Values } from '../crm-errors';
import { Api4Error, type CiviCrmModel } from './civicrm-model';

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

  async api4<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Api4Params = {},
  ): Promise<T[]> {
    await this.delay();
    try {
      return this.model.api4(entity, action, params) as T[];
    } catch (error) {
      if (!(error instanceof Api4Error)) throw error;
      // The live client reports the HTTP status; the model's reason helps whoever reads the log.
      throw new CrmError(
        failureForStatus(error.status, true),
        `${entity}.${action}`,
        `HTTP ${error.status} (${error.message})`,
        error.status,
      );
    }
  }

  createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]> {
    const content = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    return this.api4<T>('File', 'create', {
      values: { file_name: file.fileName, mime_type: file.mimeType, content: content.toString('base64') },
    });
  }

  async api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    await this.delay();
    const envelope = this.model.api3(entity, action, params);
    if (envelope.is_error) {
      throw new CrmError(
        'rejected',
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
