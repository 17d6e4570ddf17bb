/**
 * The in-memory CiviCRM (docs/emulator.md): the model the back end's stub mode, its tests and the
 * emulator share. The HTTP emulator is a separate entry, @checkin/civicrm-fake/emulator, so that
 * importing the model never brings it into the service's bundle.
 */
export { CiviCrmModel } from './lib/model/civicrm-model';
export {
  ADMIN_USER,
  ALL_PERMISSIONS,
  ANONYMOUS_USER,
  API4_OPERATORS,
  Api4Error,
  type Api4ErrorStatus,
  type ApiUser,
  type CallContext,
  CHECKIN_EXTENSION_VERSION,
  CHECKIN_INFO_PERMISSIONS,
  CIVICRM_RELEASES,
  type CiviCrmModelOptions,
  type CiviCrmVersion,
  type CrmDataType,
  CrmFatalError,
  type CrmRow,
  DEFAULT_CHECKSUM_TTL_HOURS,
  ENTITY_NAMES,
  type EntityName,
  type ModelSnapshot,
  type StoredFile,
  type V3Envelope,
  type V3Row,
  WRITE_ACTIONS,
} from './lib/model/types';
export { cleanFileName, formatInZone, formatTimestamp, makeFileName, munge } from './lib/model/values';
