/**
 * Back-end unit and integration tests. file-type is ESM-only and loaded with a dynamic import,
 * which jest supports only under --experimental-vm-modules (set by the test target's NODE_OPTIONS).
 */
const { join } = require('node:path');

module.exports = {
  displayName: 'backend',
  testEnvironment: 'node',
  rootDir: __dirname,
  // The contract library's specs run here, once: tools/run-tests.mjs counts this suite. The fake
  // CiviCRM's run with its own config (libs/civicrm-fake/jest.config.cjs).
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/../libs/contract/src'],
  testMatch: ['**/*.spec.ts'],
  // The real-CiviCRM suite (test/civicrm) runs through tools/civicrm/real-suite.mjs, against a CiviCRM it starts;
  // the reliability suites (test/reliability) need a fresh build: jest.reliability.config.cjs, target test-reliability.
  testPathIgnorePatterns: ['/node_modules/', '/test/civicrm/', '/test/reliability/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // Absolute, so the configs that extend this one (reliability, real CiviCRM) resolve the same.
  moduleNameMapper: {
    '^@checkin/contract$': join(__dirname, '../libs/contract/src/index.ts'),
    '^@checkin/civicrm-fake$': join(__dirname, '../libs/civicrm-fake/src/index.ts'),
    '^@checkin/civicrm-fake/emulator$': join(__dirname, '../libs/civicrm-fake/src/emulator.ts'),
  },
  testTimeout: 20000,
  // A worker per core: jest's default (cores - 1) is one worker on a 2-core machine, and these
  // specs mostly wait on HTTP and timers, so a second worker nearly halves the run (145 s -> 74 s
  // on a quiet 2-core machine).
  maxWorkers: '100%',
  coverageDirectory: '../dist/coverage/backend',
};
