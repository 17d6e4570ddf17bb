import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmSiteGateway } from './site.gateway';
import { CrmError } from './crm-errors';
import { crmLocalTimeToIso, isKnownTimeZone, toCrmLocalTime } from '@checkin/contract';

/** What the service learns about the CiviCRM site it talks to, once. */
export interface CrmSiteInfo {
  /** The repository's CiviCRM extension (civicrm-extension/), or null when it is not installed. */
  extensionVersion: string | null;
  civicrmVersion: string | null;
  /** The IANA zone the CRM keeps local date-times in. */
  timeZone: string;
  /** Where the zone came from, for health and logs. */
  timeZoneSource: 'setting' | 'extension' | 'default';
}

/** Retry a failed discovery after this long, so a CRM that was down at start is asked again. */
const FAILED_DISCOVERY_RETRY_MS = 60_000;

/**
 * Discovers the site through the extension's `CheckinMiddleware.info` action: one call, cached for
 * the life of the process (a failed or refused one for a minute). CRM_TIMEZONE, when set, wins over
 * what the extension says. Without the extension the zone defaults to UTC, and uploads are refused
 * (README, "Dates and time zones"; docs/civicrm-setup.md).
 */
@Injectable()
export class CrmSiteService {
  private readonly logger = new Logger('CrmSite');
  private cached?: { info: Promise<CrmSiteInfo>; until: number };

  constructor(
    private readonly gateway: CrmSiteGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  info(): Promise<CrmSiteInfo> {
    if (!this.cached || this.cached.until < Date.now()) {
      const info = this.discover();
      const entry = { info, until: Number.POSITIVE_INFINITY };
      this.cached = entry;
      info.then(
        (found) => {
          if (found.extensionVersion === null) entry.until = Date.now() + FAILED_DISCOVERY_RETRY_MS;
        },
        // An unreachable CRM teaches nothing about the site: the next caller asks again.
        () => {
          if (this.cached === entry) this.cached = undefined;
        },
      );
    }
    return this.cached.info;
  }

  async timeZone(): Promise<string> {
    return (await this.info()).timeZone;
  }

  /** An instant as the CRM's wall clock, for writing `activity_date_time`. */
  async toCrmTime(instant: Date): Promise<string> {
    return toCrmLocalTime(instant, await this.timeZone());
  }

  /** A CRM wall-clock date-time as an ISO 8601 instant. */
  async fromCrmTime(value: unknown): Promise<string> {
    return crmLocalTimeToIso(value, await this.timeZone());
  }

  private async discover(): Promise<CrmSiteInfo> {
    const configured = this.config.crm?.timeZone;
    try {
      const row = await this.gateway.extensionInfo();
      const reported = typeof row?.['timezone'] === 'string' ? row['timezone'] : '';
      const usable = reported !== '' && isKnownTimeZone(reported);
      if (!configured && !usable) this.logger.warn(`the CRM reported no usable time zone; using UTC`);
      return {
        extensionVersion: String(row?.['extension_version'] ?? '') || 'unknown',
        civicrmVersion: typeof row?.['civicrm_version'] === 'string' ? row['civicrm_version'] : null,
        timeZone: configured ?? (usable ? reported : 'UTC'),
        timeZoneSource: configured ? 'setting' : usable ? 'extension' : 'default',
      };
    } catch (error) {
      if (!(error instanceof CrmError) || error.failure === 'unreachable' || error.failure === 'timeout') {
        throw error;
      }
      this.logger.warn(
        `the check-in extension did not answer (${error.failure}); ` +
          `time zone ${configured ?? 'UTC'}${configured ? ' (CRM_TIMEZONE)' : ' (default)'}`,
      );
      return {
        extensionVersion: null,
        civicrmVersion: null,
        timeZone: configured ?? 'UTC',
        timeZoneSource: configured ? 'setting' : 'default',
      };
    }
  }
}
