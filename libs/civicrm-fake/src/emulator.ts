/** The CiviCRM emulator: the in-memory model behind CiviCRM's wire protocol (docs/emulator.md). */
export { CiviCrmEmulator } from './lib/emulator/civicrm-emulator';
export {
  type CiviCrmEmulatorOptions,
  CONTENT_ENCODING_HEADER,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_EMULATOR_LOGIN,
  type EmulatorFault,
  type EmulatorFaultKind,
  type EmulatorLogin,
  type RecordedCall,
  SESSION_COOKIE,
} from './lib/emulator/emulator-types';
export { type EmulatorCliSeed, parseEmulatorArgs, runEmulatorCli } from './lib/emulator/emulator-cli';
