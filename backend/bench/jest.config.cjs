/**
 * Benchmarks (`npm run bench`), never part of `npm test`: jest is only the TypeScript runner
 * here. Each *.bench.ts prints its figures and writes them to dist/bench/<name>.json.
 */
const base = require('../jest.config.cjs');

module.exports = {
  ...base,
  displayName: 'bench',
  rootDir: require('node:path').join(__dirname, '..'),
  roots: ['<rootDir>/bench'],
  testMatch: ['**/*.bench.ts'],
  testTimeout: 300_000,
  maxWorkers: 1,
};
