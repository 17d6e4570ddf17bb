import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  CURRENT_STAGE_FIELD_NAME,
  type FieldConfig,
  type OptionItem,
  type OptionMap,
  type StageOption,
  type ValueFormatSettings,
  DEFAULT_VALUE_FORMAT,
  valueFormatFromCrm,
} from '@checkin/contract';
import { rankStages } from '../check-ins/stages';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmError } from './crm-errors';
import { ACTIVITY_CUSTOM_GROUP, ACTIVITY_STAGE_FIELD, CONTACT_CUSTOM_GROUP } from './crm-names';
import { CrmSiteGateway, type CustomFieldMetadata } from './site.gateway';

export type { CustomFieldMetadata } from './site.gateway';

/**
 * The domain settings behind ValueFormatSettings, read through APIv4 Setting.get (which needs
 * administer CiviCRM) only when the check-in extension does not report them.
 */
const VALUE_FORMAT_SETTINGS = ['defaultCurrency', 'lcMessages'];
/** How long CiviCRM's defaults stand in for settings that could not be read. */
const FAILED_SETTINGS_RETRY_MS = 60_000;
/** Distinct sets of option groups the pages ask for (the form's, the report's, submit's). */
const MAX_OPTION_GROUP_SETS = 32;

export interface ResolvedOptions {
  /** Keyed by form-side field name; `current_stage` holds the stage options. */
  options: OptionMap;
  stages: StageOption[];
}

/**
 * The site's metadata the pages need, cached at run time (not the schema installer of
 * backend/src/crm-schema): the custom fields of both custom groups, cached for
 * SCHEMA_CACHE_SECONDS, the option lists of the fields a page asks for (one OptionValue read for
 * every option group they use, plus the stage field's group, docs/decisions.md, "Stages"), and the
 * site's currency and locale. Every read goes through CrmSiteGateway, which checks its rows.
 */
@Injectable()
export class SiteMetadataCache {
  private readonly metadataCache: LRUCache<'custom-fields', Map<string, CustomFieldMetadata>>;
  private readonly metadataCacheMs: number;
  private readonly valueFormatCache: LRUCache<'value-format', ValueFormatSettings>;
  /** Active options by option group, keyed by the sorted group ids a read asked for. */
  private readonly optionCache: LRUCache<string, Map<number, OptionItem[]>>;
  private readonly logger = new Logger('SiteMetadata');

  constructor(
    private readonly site: CrmSiteGateway,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // One entry; concurrent callers during a load share one CRM call, a failed load is not kept.
    this.metadataCache = new LRUCache({
      max: 1,
      ttl: config.schemaCacheMs,
      fetchMethod: () => this.fetchCustomFields(),
    });
    this.metadataCacheMs = config.schemaCacheMs;
    // Option lists are schema too: kept as long as the field metadata, so a page or a submit that
    // checks a select answer costs no CRM call for them (docs/performance.md, "Option lists").
    this.optionCache = new LRUCache({
      max: MAX_OPTION_GROUP_SETS,
      ttl: config.schemaCacheMs,
      fetchMethod: (key) => this.fetchOptions(key.split(',').map(Number)),
    });
    this.valueFormatCache = new LRUCache({
      max: 1,
      ttl: config.schemaCacheMs,
      fetchMethod: (_key, _stale, { options }) => this.fetchValueFormat(options),
    });
  }

  /**
   * The site's currency and locale (`defaultCurrency` and `lcMessages`, from the extension's
   * CheckinMiddleware.info, else Setting.get), cached as the
   * schema is. Never fails a page: a refused or failed read answers CiviCRM's defaults, kept for a
   * minute at most so a fixed permission shows soon (docs/decisions.md, "Currency and number formats").
   * Called in the same tick as a page's other reads, it joins their batch.
   */
  valueFormat(): Promise<ValueFormatSettings> {
    return this.valueFormatCache
      .fetch('value-format', { forceRefresh: this.metadataCacheMs <= 0 })
      .then((format) => format ?? DEFAULT_VALUE_FORMAT);
  }

  /** Every active custom field of the check-in and organization groups. */
  customFields(): Promise<Map<string, CustomFieldMetadata>> {
    // SCHEMA_CACHE_SECONDS=0 keeps nothing (a TTL of 0 would keep it for ever), but still shares a load.
    return this.metadataCache
      .fetch('custom-fields', { forceRefresh: this.metadataCacheMs <= 0 })
      .then((fields) => fields as Map<string, CustomFieldMetadata>);
  }

  /**
   * The configured fields CiviCRM does not offer: disabled there (CustomField is_active false, so
   * APIv4 neither reads nor writes them) or missing. docs/decisions.md, "Disabled fields".
   */
  async inactive(fields: readonly FieldConfig[]): Promise<Set<string>> {
    const metadata = await this.customFields();
    return new Set(
      fields
        .filter((field) => {
          const crmName = field.crmField ?? field.crmContactField;
          return crmName !== undefined && !metadata.has(crmName);
        })
        .map((field) => field.name),
    );
  }

  async options(fields: readonly FieldConfig[]): Promise<ResolvedOptions> {
    const metadata = await this.customFields();
    const groupByField = new Map<string, number>();
    for (const field of fields) {
      const crmName = field.crmField ?? field.crmContactField;
      const groupId = crmName ? metadata.get(crmName)?.optionGroupId : null;
      if (groupId && (field.type === 'select' || field.type === 'multiselect')) {
        groupByField.set(field.name, groupId);
      }
    }
    const stageGroupId = metadata.get(ACTIVITY_STAGE_FIELD)?.optionGroupId ?? null;
    const groupIds = [...new Set([...groupByField.values(), ...(stageGroupId ? [stageGroupId] : [])])];
    if (groupIds.length === 0) return { options: {}, stages: [] };

    const key = [...groupIds].sort((a, b) => a - b).join(',');
    const byGroup = (await this.optionCache.fetch(key, {
      forceRefresh: this.metadataCacheMs <= 0,
    })) as Map<number, OptionItem[]>;
    const options: OptionMap = {};
    // Copies: the cached lists are shared by every page.
    for (const [fieldName, groupId] of groupByField) options[fieldName] = [...(byGroup.get(groupId) ?? [])];
    const stageItems = stageGroupId ? [...(byGroup.get(stageGroupId) ?? [])] : [];
    options[CURRENT_STAGE_FIELD_NAME] = stageItems;
    return { options, stages: rankStages(stageItems) };
  }

  /** One OptionValue read for the groups, their active options in weight order. */
  private async fetchOptions(groupIds: readonly number[]): Promise<Map<number, OptionItem[]>> {
    const byGroup = new Map<number, OptionItem[]>();
    for (const option of await this.site.activeOptionsOfGroups(groupIds)) {
      const list = byGroup.get(option.optionGroupId) ?? [];
      list.push({ value: option.value, label: option.label, name: option.name });
      byGroup.set(option.optionGroupId, list);
    }
    return byGroup;
  }

  private async fetchValueFormat(options: { ttl?: number }): Promise<ValueFormatSettings> {
    try {
      const fromExtension = await this.valueFormatFromExtension();
      if (fromExtension) return fromExtension;
      const byName = await this.site.settings(VALUE_FORMAT_SETTINGS);
      return valueFormatFromCrm(byName.get('defaultCurrency'), byName.get('lcMessages'));
    } catch (error) {
      this.logger.warn(
        `the site's currency and locale could not be read (${error instanceof Error ? error.message : String(error)}); using USD and en-US`,
      );
      options.ttl = Math.min(FAILED_SETTINGS_RETRY_MS, this.metadataCacheMs);
      return DEFAULT_VALUE_FORMAT;
    }
  }

  /**
   * The extension's `CheckinMiddleware.info` reports both settings with its own rights, so the
   * documented API user (no administer CiviCRM) gets them. Undefined when the extension is absent
   * or too old to report them; then Setting.get is the way left.
   */
  private async valueFormatFromExtension(): Promise<ValueFormatSettings | undefined> {
    let row: Record<string, unknown> | undefined;
    try {
      row = await this.site.extensionInfo();
    } catch (error) {
      if (!(error instanceof CrmError) || error.failure === 'unreachable' || error.failure === 'timeout') {
        throw error;
      }
      return undefined;
    }
    if (typeof row?.['default_currency'] !== 'string' || typeof row['locale'] !== 'string') return undefined;
    return valueFormatFromCrm(row['default_currency'], row['locale']);
  }

  private async fetchCustomFields(): Promise<Map<string, CustomFieldMetadata>> {
    const fields = await this.site.customFieldsOfGroupsNamed([ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP]);
    return new Map(fields.map((field) => [field.crmName, field]));
  }
}
