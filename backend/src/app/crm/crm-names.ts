/** Names in the CRM that the service depends on (docs/product-rules.md, "CRM names"). */
export const ACTIVITY_TYPE_NAME = 'Check-in (organizing)';
export const ACTIVITY_CUSTOM_GROUP = 'Check_in_data__organizing_';
export const CONTACT_CUSTOM_GROUP = 'Food_Co_op_Organizing';
/** Set only on activities staff create; the form never writes it (docs/decisions.md, "Stages"). */
export const ACTIVITY_STAGE_FIELD = `${ACTIVITY_CUSTOM_GROUP}.Stage`;
/** Holds the browser's submissionId so a retried submit finds its activity (docs/decisions.md, "Idempotent submit"). */
export const SUBMISSION_ID_FIELD = `${ACTIVITY_CUSTOM_GROUP}.Submission_ID`;
/** Which answers a check-in cleared, so prefill and report see them cleared (docs/owner-experience.md). */
export const CLEARED_FIELDS_FIELD = `${ACTIVITY_CUSTOM_GROUP}.Cleared_fields`;
export const FORM_CONTACT_RELATIONSHIP = 'Primary Contact';
export const ACTIVITY_STATUS_NAME = 'Completed';
/** Staff-only stage on the organization, for CRM list views; the service never reads or writes it. */
export const CONTACT_STAGE_FIELD = `${CONTACT_CUSTOM_GROUP}.Stage`;

/** What the service reads of a relationship type: enough to tell which side is the person. */
export const RELATIONSHIP_TYPE_FIELDS = [
  'id',
  'name_a_b',
  'label_a_b',
  'name_b_a',
  'label_b_a',
  'contact_type_a',
  'contact_type_b',
  'is_active',
];
