/**
 * Back-end unit and integration tests. file-type is ESM-only and loaded with a dynamic import,
 * which jest supports only under --experimental-vm-modules (set by the test target's NODE_OPTIONS).
 */
module.exports = {
  displayName: 'backend',
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  // The real-CiviCRM suite (test/civicrm) runs through tools/civicrm/real-suite.mjs, against a CiviCRM it starts;
  // the reliability suites (test/reliability) need a fresh build: jest.reliability.config.cjs, target test-reliability.
  testPathIgnorePatterns: ['/node_modules/', '/test/civicrm/', '/test/reliability/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper: {
    '^@checkin/contract$': '<rootDir>/../libs/contract/src/index.ts',
  },
  testTimeout: 20000,
  coverageDirectory: '../dist/coverage/backend',
};
