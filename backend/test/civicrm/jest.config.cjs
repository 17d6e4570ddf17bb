/**
 * The real-CiviCRM suite: run by tools/civicrm/real-suite.mjs against a CiviCRM it started and
 * set up (CIVICRM_URL and friends in the environment). Not part of the back end's own run.
 */
const base = require('../../jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'real-civicrm',
  rootDir: __dirname,
  roots: ['<rootDir>'],
  // Everything in this folder needs a real CiviCRM.
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../../tsconfig.spec.json' }],
  },
  testTimeout: 120_000,
  maxWorkers: 1,
};
