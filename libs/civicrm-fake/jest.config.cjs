/** The fake CiviCRM's own specs: the model, the HTTP emulator and the contract flow (tools/run-tests.mjs counts them). */
const { join } = require('node:path');

module.exports = {
  displayName: 'civicrm-fake',
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@checkin/contract$': join(__dirname, '../contract/src/index.ts'),
  },
  testTimeout: 20000,
  coverageDirectory: '../../dist/coverage/civicrm-fake',
};
