/**
 * The reliability suites (faults, fuzzing, load, upload floods) run against the BUILT service in
 * dist/backend, so they have their own target, `nx run backend:test-reliability`, which builds
 * first: a stale build can never pass for the current code.
 */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'backend-reliability',
  roots: ['<rootDir>/test/reliability'],
  testPathIgnorePatterns: ['/node_modules/'],
  // One suite at a time: each measures a built service's answers, memory and CPU, which a second
  // suite loading the machine beside it would distort.
  maxWorkers: 1,
};
