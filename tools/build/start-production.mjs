#!/usr/bin/env node
/**
 * `npm run start:prod`: the bundle `npm run build` produced, with NODE_ENV=production. Loaded in
 * this process (not spawned), so the service receives the platform's SIGTERM itself.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'backend', 'main.js');
if (!existsSync(main)) {
  console.error('Refusing to start. dist/backend/main.js is missing: run `npm run build` first.');
  process.exit(1);
}
process.env.NODE_ENV = 'production';
createRequire(import.meta.url)(main);
