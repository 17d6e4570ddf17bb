import { Inject, Injectable } from '@nestjs/common';
import type { FieldValues, StaffReportPayload } from '@checkin/contract';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { newestStageValue, toStageInfo } from '../check-ins/stages';
import { CrmCheckInsGateway } from '../crm/check-ins.gateway';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { CrmFilesGateway } from '../crm/files.gateway';
import { SiteMetadataCache } from '../crm/site-metadata.cache';
import { Errors } from '../errors/app-error';
import { AttachmentUrlService } from './attachment-urls.service';
import { collectFileIds, contactIdsIn, withContactNames, withFileUrls } from './file-urls';
import { planStaffLayout } from './staff-layout';
import { buildStaffSections, buildSubmissions, STAFF_CHECK_IN_READ } from './staff-sections';

/**
 * GET /api/staff/report: every custom field of one organization and its check-ins, for staff.
 * Round trips with the schema cached: one parallel round (organization, check-ins, options),
 * then the one Attachment lookup for signed file URLs when any file is referenced.
 */
@Injectable()
export class StaffReportService {
  constructor(
    private readonly metadata: SiteMetadataCache,
    private readonly contacts: CrmContactsGateway,
    private readonly checkIns: CrmCheckInsGateway,
    private readonly attachments: AttachmentUrlService,
    private readonly files: CrmFilesGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async report(orgId: number): Promise<StaffReportPayload> {
    const layout = planStaffLayout(await this.metadata.customFields());
    const [organization, checkins, { options, stages }, valueFormat] = await Promise.all([
      this.contacts.findOrganization(orgId, layout.contactFields),
      this.checkIns.list(orgId, layout.activityFields, STAFF_CHECK_IN_READ),
      this.metadata.options([...layout.contactFields, ...layout.activityFields]),
      this.metadata.valueFormat(),
    ]);
    if (!organization) {
      throw Errors.notFound(`There is no organization with id ${orgId}.`);
    }

    const valueMaps = [organization.values, ...checkins.map((checkin) => checkin.values)];
    const fileIds = collectFileIds(valueMaps);
    // In the same round as the file lookup: the contacts a ContactReference field names.
    const [{ lookup, urls }, names] = await Promise.all([
      this.attachments.signedUrls(fileIds),
      this.contacts.displayNames(contactIdsIn(valueMaps, layout.contactReferenceFields)),
    ]);
    const shown = (values: FieldValues) =>
      withFileUrls(withContactNames(values, layout.contactReferenceFields, names), urls);
    const signedCheckIns = checkins.map((checkin) => ({ ...checkin, values: shown(checkin.values) }));
    const newestStage = newestStageValue(checkins);

    return {
      organization: { id: organization.id, name: organization.name },
      currentStage: toStageInfo(newestStage, stages),
      stages,
      sections: buildStaffSections(layout, shown(organization.values), signedCheckIns),
      submissions: buildSubmissions(checkins, stages),
      options,
      crmBaseUrl: this.crmBaseUrl(),
      fileRouteTemplate: this.config.crm?.fileRoute ?? null,
      fileUrlLookup: lookup,
      valueFormat,
    };
  }

  /**
   * CRM_BASE_URL for file links. In stub mode it is the in-memory CRM's own address, the one its
   * signed URLs use: a reserved `.invalid` host, so a stub link can never reach a real server.
   */
  private crmBaseUrl(): string | null {
    if (this.config.crm) return this.config.crm.baseUrl;
    return this.files.fileBaseUrl;
  }
}
