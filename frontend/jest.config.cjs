/**
 * Front-end unit tests: zoneless Angular in jsdom (jest-preset-angular). tsconfig.spec.json sets
 * isolatedModules, so each file is compiled alone and not type-checked here: the typecheck target
 * (npm run lint) checks the specs, and a cold run takes half the time.
 */
module.exports = {
  displayName: 'frontend',
  preset: 'jest-preset-angular',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/src/test-setup.ts'],
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: {
    '^.+\\.(ts|mjs|js|html)$': [
      'jest-preset-angular',
      { tsconfig: '<rootDir>/tsconfig.spec.json', stringifyContentPathRegex: '\\.(html|svg)$' },
    ],
  },
  transformIgnorePatterns: ['node_modules/(?!.*\\.mjs$|d3-|internmap|@swimlane)'],
  moduleNameMapper: {
    '^@checkin/contract$': '<rootDir>/../libs/contract/src/index.ts',
  },
  // A worker per core, not jest's default of cores - 1 (one on a 2-core machine): 25 s -> 16 s.
  maxWorkers: '100%',
  coverageDirectory: '../dist/coverage/frontend',
};
