import { Inject, Injectable } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import {
  MAX_STAGE_RANK,
  type ContactRelationshipsDiagnostic,
  type CustomGroupsDiagnostic,
  type PrimaryContactTypeDiagnostic,
  type RelationshipDiagnostic,
  type RelationshipTypeSummary,
  type StageOptionsDiagnostic,
} from '@checkin/contract';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmSiteGateway, type RelationshipWithSides } from '../crm/site.gateway';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
} from '../crm/crm-names';
import { rankStages } from '../check-ins/stages';
import { crmDown } from './dependency-failure';
import { directionProblems, personSide } from './relationship-direction';
import {
  diagnoseCustomGroups,
  type ExpectedGroup,
  expectedGroups,
  nearMatchGroups,
} from '../site-audit/custom-groups';
import {
  relationshipTypeDisabled,
  relationshipTypeSides,
  tiesPersonToOrganization,
} from '../site-audit/findings';

/** The diagnostics list this many of a contact's relationships at most. */
const MAX_LISTED_RELATIONSHIPS = 200;
const EXPECTED_STAGE_COUNT = MAX_STAGE_RANK + 1;
const NEAR_MATCH = /primary|contact/i;

type Diagnostic =
  | StageOptionsDiagnostic
  | PrimaryContactTypeDiagnostic
  | ContactRelationshipsDiagnostic
  | CustomGroupsDiagnostic;

/** Custom groups listed at most when looking for near matches. */
const MAX_LISTED_GROUPS = 500;

/**
 * The diagnostic probes of docs/product-rules.md, "Health", each a Terminus indicator that is down when it finds a problem:
 * the stage option group resolved through the Stage field's metadata, the 'Primary Contact'
 * relationship type (with its near matches, always listed), and a contact's
 * relationships with direction problems flagged. They read the CRM live, past every cache,
 * because they exist to explain what the CRM holds now.
 */
@Injectable()
export class CrmDiagnosticsIndicator {
  private readonly groups: ExpectedGroup[];
  /** The Stage field under the configured group's name, as health names it. */
  private readonly stageField: string;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly site: CrmSiteGateway,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const names = config.crm?.customGroups ?? {
      activity: ACTIVITY_CUSTOM_GROUP,
      contact: CONTACT_CUSTOM_GROUP,
    };
    this.groups = expectedGroups(names);
    this.stageField = `${names.activity}${ACTIVITY_STAGE_FIELD.slice(ACTIVITY_CUSTOM_GROUP.length)}`;
  }

  /** Both custom groups and every configured field, with near matches for what is missing. */
  customGroups(): Promise<HealthIndicatorResult> {
    return this.probe('customGroups', () => this.diagnoseCustomGroups());
  }

  stageOptions(): Promise<HealthIndicatorResult> {
    return this.probe('stageOptions', () => this.diagnoseStageOptions());
  }

  primaryContactType(): Promise<HealthIndicatorResult> {
    return this.probe('primaryContactType', () => this.diagnosePrimaryContactType());
  }

  contactRelationships(contactId: number): Promise<HealthIndicatorResult> {
    return this.probe('contactRelationships', () => this.diagnoseContactRelationships(contactId));
  }

  /** Up when the probe found no problem; a CRM failure is down with its kind, not an error. */
  private async probe(key: string, diagnose: () => Promise<Diagnostic>): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    let diagnostic: Diagnostic;
    try {
      diagnostic = await diagnose();
    } catch (error) {
      return indicator.down(crmDown(error));
    }
    return diagnostic.problems.length === 0
      ? indicator.up<Diagnostic>(diagnostic)
      : indicator.down<Diagnostic>(diagnostic);
  }

  /**
   * Three reads: the groups under their configured names (the CRM client spells them the site's
   * way, so this is exactly what the service finds), every group (for near matches), then the
   * fields of both. Near matches are looked for only when a group is missing or disabled.
   */
  private async diagnoseCustomGroups(): Promise<CustomGroupsDiagnostic> {
    const [configured, all] = await Promise.all([
      this.site.customGroupsNamed(this.groups.map((group) => group.codeName)),
      this.site.customGroups(MAX_LISTED_GROUPS),
    ]);
    const groupIds = new Set<unknown>(configured.map((row) => row['id']));
    for (const group of this.groups) {
      const found = configured.find((row) => row['name'] === group.codeName);
      if (found && found['is_active'] !== false) continue;
      for (const row of nearMatchGroups(group, all, found ? asNumber(found['id']) : null))
        groupIds.add(row['id']);
    }
    const fields = groupIds.size === 0 ? [] : await this.site.customFieldsOfGroups([...groupIds]);
    return diagnoseCustomGroups(this.groups, { configured, all, fields });
  }

  private async diagnoseStageOptions(): Promise<StageOptionsDiagnostic> {
    const stageFieldName = ACTIVITY_STAGE_FIELD.slice(ACTIVITY_CUSTOM_GROUP.length + 1);
    const field = await this.site.customFieldWithOptionGroup(ACTIVITY_CUSTOM_GROUP, stageFieldName);
    const diagnostic: StageOptionsDiagnostic = {
      field: this.stageField,
      customFieldId: field ? field.id : null,
      optionGroupId: field ? field.optionGroupId : null,
      optionGroup: field ? field.optionGroupName : null,
      stages: [],
      problems: [],
    };
    if (!field) return withProblem(diagnostic, `The custom field ${this.stageField} does not exist.`);
    if (!field.isActive) {
      diagnostic.problems.push(`The custom field ${this.stageField} is disabled.`);
    }
    if (diagnostic.optionGroupId === null) {
      return withProblem(diagnostic, `The custom field ${this.stageField} has no option group.`);
    }
    const options = await this.site.activeOptions(diagnostic.optionGroupId);
    diagnostic.stages = rankStages(
      options.map((option) => ({ value: String(option['value']), label: asText(option['label']) ?? '' })),
    );
    if (options.length !== EXPECTED_STAGE_COUNT) {
      diagnostic.problems.push(
        `The stage option group has ${options.length} active options; ${EXPECTED_STAGE_COUNT} are expected ` +
          `(ranks 0 to ${MAX_STAGE_RANK}, by weight).`,
      );
    }
    return diagnostic;
  }

  private async diagnosePrimaryContactType(): Promise<PrimaryContactTypeDiagnostic> {
    const types = await this.site.relationshipTypes();
    const found = types.find((type) => type.name_a_b === FORM_CONTACT_RELATIONSHIP) ?? null;
    const problems = found
      ? typeProblems(found)
      : [`No relationship type is named '${FORM_CONTACT_RELATIONSHIP}'.`];
    // Listed even when the type is found: two similar types are what leads staff to pick the wrong one.
    return {
      name: FORM_CONTACT_RELATIONSHIP,
      found,
      nearMatches: types.filter((type) => type !== found && isNearMatch(type)),
      problems,
    };
  }

  private async diagnoseContactRelationships(contactId: number): Promise<ContactRelationshipsDiagnostic> {
    const [contact, rows] = await Promise.all([
      this.site.contactSummary(contactId),
      this.site.relationshipsOf(contactId, MAX_LISTED_RELATIONSHIPS + 1),
    ]);
    const relationships = rows.slice(0, MAX_LISTED_RELATIONSHIPS).map(toRelationshipDiagnostic);
    const flagged = relationships.filter((relationship) => relationship.problems.length > 0);
    return {
      contactId,
      contact: contact ?? null,
      relationships,
      truncated: rows.length > MAX_LISTED_RELATIONSHIPS,
      primaryContactOf: primaryContactOrganizations(relationships, contactId),
      problems: [
        ...(contact ? [] : [`No contact has the id ${contactId} (or it is deleted).`]),
        ...flagged.flatMap((relationship) =>
          relationship.problems.map((problem) => `Relationship ${relationship.id}: ${problem}`),
        ),
      ],
    };
  }
}

function withProblem(diagnostic: StageOptionsDiagnostic, problem: string): StageOptionsDiagnostic {
  diagnostic.problems.push(problem);
  return diagnostic;
}

function typeProblems(type: RelationshipTypeSummary): string[] {
  const problems: string[] = [];
  if (!type.is_active) problems.push(relationshipTypeDisabled(type.name_a_b));
  if (!tiesPersonToOrganization([type.contactTypeA, type.contactTypeB])) {
    problems.push(relationshipTypeSides(type.name_a_b, type.contactTypeA, type.contactTypeB));
  }
  return problems;
}

function isNearMatch(type: RelationshipTypeSummary): boolean {
  return [type.name_a_b, type.label_a_b, type.name_b_a, type.label_b_a].some(
    (text) => text !== null && NEAR_MATCH.test(text),
  );
}

/** Active 'Primary Contact' relationships that hold the contact on the type's person side. */
function primaryContactOrganizations(relationships: RelationshipDiagnostic[], contactId: number): number[] {
  const organizations = new Set<number>();
  for (const relationship of relationships) {
    if (relationship.type !== FORM_CONTACT_RELATIONSHIP || !relationship.isActive) continue;
    const side = personSide(relationship.expectedContactTypeA, relationship.expectedContactTypeB);
    const [person, organization] =
      side === 'a'
        ? [relationship.contactA, relationship.contactB]
        : [relationship.contactB, relationship.contactA];
    if (person.id === contactId) organizations.add(organization.id);
  }
  return [...organizations].sort((a, b) => a - b);
}

function toRelationshipDiagnostic(sides: RelationshipWithSides): RelationshipDiagnostic {
  return {
    id: sides.id,
    type: sides.typeName,
    isActive: sides.isActive,
    contactA: sides.contactA,
    contactB: sides.contactB,
    expectedContactTypeA: sides.expectedContactTypeA,
    expectedContactTypeB: sides.expectedContactTypeB,
    problems: directionProblems(sides),
  };
}

function asNumber(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function asText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
