/** The CiviCRM emulator: the in-memory model behind CiviCRM's wire protocol (docs/emulator.md). */
export * from './lib/emulator/civicrm-emulator';
export * from './lib/emulator/emulator-cli';
