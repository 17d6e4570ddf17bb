import { CrmError } from '../app/crm/crm-errors';
import { mungeName } from './desired-schema';
import type { Change, GroupResolution } from './plan';

export type Mode = 'dry-run' | 'apply';

export type Outcome =
  /** Nothing to change and nothing to fix by hand. */
  | 'up-to-date'
  /** Dry run: changes (or manual fixes) are needed. */
  | 'changes-needed'
  /** Apply: every change made, and a fresh read finds nothing left. */
  | 'applied'
  /** Apply: something is left (a failed call, or a problem only an administrator can fix). */
  | 'incomplete';

export interface SchemaReport {
  mode: Mode;
  crm: string;
  outcome: Outcome;
  /** Dry run: the changes needed. Apply: the changes made. */
  changes: Change[];
  /** Apply: changes a fresh read still finds needed (none after a clean apply). */
  remaining: Change[];
  problems: string[];
  notes: string[];
  groups: GroupResolution[];
  /** The settings the service needs, `NAME=value`. */
  settings: string[];
  error?: string;
}

/** The exit status: 0 nothing (left) to do, 2 a dry run found changes, 1 an apply left some. */
export function exitCodeOf(outcome: Outcome): number {
  return outcome === 'changes-needed' ? 2 : outcome === 'incomplete' ? 1 : 0;
}

/** The group's name as CiviCRM holds it, or as CiviCRM will store it once created. */
function assignedName(group: GroupResolution): string {
  return group.foundName ?? mungeName(group.configuredName);
}

export function settingsOf(groups: readonly GroupResolution[]): string[] {
  return groups.map((group) => `${group.setting}=${assignedName(group)}`);
}

function groupLine(group: GroupResolution): string {
  if (group.foundName === null) {
    return `${group.key}: '${group.configuredName}' is missing; CiviCRM will name it '${assignedName(group)}'`;
  }
  const how =
    group.matchedBy === 'configured name'
      ? 'found by its configured name'
      : `found by its ${group.matchedBy ?? 'name'} (configured: '${group.configuredName}')`;
  return `${group.key}: '${group.foundName}', ${how}`;
}

function changeLines(changes: readonly Change[]): string[] {
  return changes.flatMap((change) => [
    `  ${change.action === 'create' ? '+' : '~'} ${change.summary}`,
    ...change.details.map((detail) => `      ${detail}`),
  ]);
}

/** The report as text for a terminal: what differs, what was done, and the settings to use. */
export function formatReport(report: SchemaReport): string {
  const heading = report.mode === 'dry-run' ? 'dry run: nothing is changed' : 'apply';
  const sections: string[][] = [[`CiviCRM schema for the check-in service at ${report.crm} (${heading})`]];
  if (report.mode === 'dry-run') {
    sections.push(
      report.changes.length === 0
        ? ['No changes needed.']
        : [`Changes needed (${report.changes.length}):`, ...changeLines(report.changes)],
    );
  } else {
    if (report.changes.length > 0) {
      sections.push([`Changes made (${report.changes.length}):`, ...changeLines(report.changes)]);
    }
    if (report.remaining.length > 0) {
      sections.push([`Still needed (${report.remaining.length}):`, ...changeLines(report.remaining)]);
    }
    if (report.changes.length === 0 && report.remaining.length === 0 && !report.error) {
      sections.push(['Nothing to change: the CRM already has everything.']);
    }
  }
  if (report.error) sections.push([`Error: ${report.error}`]);
  if (report.problems.length > 0) {
    sections.push([
      `Needs an administrator (${report.problems.length}):`,
      ...report.problems.map((problem) => `  ! ${problem}`),
    ]);
  }
  if (report.notes.length > 0) sections.push(['Notes:', ...report.notes.map((note) => `  - ${note}`)]);
  if (report.groups.length > 0) {
    sections.push(['Custom groups:', ...report.groups.map((group) => `  ${groupLine(group)}`)]);
    sections.push(["Settings for the service's environment:", ...report.settings.map((line) => `  ${line}`)]);
  }
  if (report.mode === 'dry-run' && report.changes.length > 0) {
    sections.push(['Run again with --apply to make these changes.']);
  }
  return sections.map((section) => section.join('\n')).join('\n\n');
}

/** What to check next, for the CRM failures an administrator can fix; '' for the others. */
export function hintFor(error: unknown): string {
  if (!(error instanceof CrmError)) return '';
  if (error.failure === 'unauthorized')
    return '\nThe CRM refused the API key: check CRM_API_KEY and CRM_SITE_KEY.';
  if (error.failure === 'forbidden') {
    return (
      "\nThe API key's user lacks a permission: run the installer with the key of a user who has " +
      "'administer CiviCRM' (the service's own API user need not have it)."
    );
  }
  return '';
}
