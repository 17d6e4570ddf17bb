#!/usr/bin/env node
/**
 * `npm run crm:schema`: the schema installer from what `npm run build` produced. It never builds:
 * a build here would replace the deployed bundle with another.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const installer = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'backend',
  'crm-schema.js',
);
if (!existsSync(installer)) {
  console.error(
    'crm:schema: dist/backend/crm-schema.js is missing: run `npm run build` first (docs/civicrm-setup.md).',
  );
  process.exit(1);
}
const run = spawnSync(process.execPath, [installer, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
