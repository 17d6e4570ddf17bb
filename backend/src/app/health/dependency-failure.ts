import type { DependencyDown, DependencyFailure } from '@checkin/contract';
import { CrmError } from '../crm/crm-errors';

const CRM_MESSAGES: Record<DependencyFailure, string> = {
  unreachable: 'The CRM could not be reached.',
  timeout: 'The CRM did not answer in time.',
  unauthorized: "The CRM refused the service's credentials.",
  forbidden: "The CRM's API user lacks a permission this check needs (docs/civicrm-setup.md lists them).",
  rejected: 'The CRM refused the request (an unknown field or entity, or a value it cannot store).',
  failed: 'The CRM answered with an error.',
  malformed: 'The CRM answered with something other than its API envelope.',
};

/**
 * What a health answer says about a failed CRM call: the kind of failure and a sentence, never
 * the CRM's own message (it can name internals). Anything but a CrmError is a bug and is
 * thrown again, so it is not mistaken for an outage.
 */
export function crmDown(error: unknown): DependencyDown {
  if (!(error instanceof CrmError)) throw error;
  const fix = error.fix;
  return {
    failure: error.failure,
    message: fix ? `${CRM_MESSAGES[error.failure]} Fix: ${fix}.` : CRM_MESSAGES[error.failure],
  };
}
