#!/usr/bin/env node
/**
 * `npm run docs:settings`: rewrites docs/settings.md (the table),
 * backend/src/app/config/required-crm-settings.json and docs/civicrm-setup.md's production
 * settings table from the setting definitions (backend/src/app/config/settings.ts), then checks
 * them, through the specs that guard them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const result = spawnSync(
  join(root, 'node_modules', '.bin', 'jest'),
  [
    '-c',
    'backend/jest.config.cjs',
    'backend/src/app/config/settings.spec.ts',
    'backend/src/app/config/production-settings.spec.ts',
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, WRITE_SETTINGS_DOCS: 'true' } },
);
process.exit(result.status ?? 1);
