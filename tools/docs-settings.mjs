#!/usr/bin/env node
/**
 * `npm run docs:settings`: rewrites README, "Settings" (the table) and
 * backend/src/app/config/required-crm-settings.json from the setting definitions
 * (backend/src/app/config/settings.ts), then checks them, through the spec that guards them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const result = spawnSync(
  join(root, 'node_modules', '.bin', 'jest'),
  ['-c', 'backend/jest.config.cjs', 'backend/src/app/config/settings.spec.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, WRITE_SETTINGS_DOCS: 'true' } },
);
process.exit(result.status ?? 1);
