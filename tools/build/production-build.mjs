#!/usr/bin/env node
/**
 * `npm run build`: the production bundles of the front end and the back end, with
 * NODE_ENV=production, so the back end's build checks the CRM settings (backend/webpack.config.js)
 * and marks its bundle a production one. Run it where the service's settings are set.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nx = join(root, 'node_modules', '.bin', 'nx');
const build = spawnSync(
  nx,
  ['run-many', '-t', 'build', '-p', 'frontend', 'backend', '--output-style=static', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NG_CLI_ANALYTICS: 'false',
      ...process.env,
      NODE_ENV: 'production',
    },
  },
);
process.exit(build.status ?? 1);
