import { Inject, Injectable } from '@nestjs/common';
import { CRM_CLIENT, type CrmClient } from './crm-client';
import { checkRows } from './crm-rows';
import { getCustomFields } from './site.gateway';

/**
 * Reads the site audit (site-audit/audit.ts) makes beyond CrmSiteGateway's:
 * each is the smallest call of a kind an owner route makes, so a refusal here is the refusal
 * that route would meet.
 */
@Injectable()
export class CrmSiteChecks {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** One `File.get` row at most: uploads and staff file links need *access uploaded files*. */
  async readFiles(): Promise<void> {
    await this.crm.api4('File', 'get', { select: ['id'], limit: 1 });
  }

  /** One field of the given groups: on CiviCRM 5.x `CustomField.get` also needs *administer CiviCRM*. */
  async readCustomFields(groupIds: readonly unknown[]): Promise<number> {
    const rows = checkRows(
      'CustomField.get',
      await getCustomFields(this.crm, {
        select: ['id'],
        where: [['custom_group_id', 'IN', groupIds]],
        limit: 1,
      }),
      { id: 'id' },
    );
    return rows.length;
  }
}
