/**
 * The join every check-in read must send, written out as the CRM receives it (not imported from
 * the code under test): ActivityContact limited to targets (docs/performance.md, "Check-in reads").
 */
export const TARGET_JOIN = [
  'ActivityContact AS tgt',
  'INNER',
  ['tgt.activity_id', '=', 'id'],
  ['tgt.record_type_id:name', '=', '"Activity Targets"'],
];
