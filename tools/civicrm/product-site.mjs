/**
 * Putting the product onto a running CiviCRM site without following docs/civicrm-setup.md: the
 * repository's extension (its `install.sh`), then the built schema installer
 * (`dist/backend/crm-schema.js --apply`), whose printed settings (`CRM_ACTIVITY_CUSTOM_GROUP=…`,
 * the names CiviCRM gave the groups) the service is started with. The scale bench
 * (tools/bench/crm-routes.mjs) sets its site up so; the real-CiviCRM suite reads a guide's
 * installer output with `settingsFrom`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Every setting line `NAME=value` the schema installer printed. */
export function settingsFrom(text) {
  const settings = {};
  for (const match of text.matchAll(/^\s*(CRM_[A-Z_]+)=(\S+)\s*$/gm)) settings[match[1]] = match[2];
  return settings;
}

/**
 * Installs the extension into `siteDir` (the folder holding `ext/`) and applies the schema through
 * `url` with the administrator's key. Answers `{ ok, step, output, settings }`: on failure `step`
 * names what failed ('extension' or 'schema'); `output` is the installer's own, printed by the caller.
 */
export function installProduct({ root, siteDir, url, adminKey, stdio = 'inherit' }) {
  const extension = spawnSync(
    'bash',
    [join(root, 'civicrm-extension', 'install.sh'), siteDir, url, adminKey],
    {
      cwd: root,
      stdio,
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  if (extension.status !== 0) return { ok: false, step: 'extension', output: '', settings: {} };
  const schema = spawnSync(process.execPath, [join(root, 'dist', 'backend', 'crm-schema.js'), '--apply'], {
    cwd: root,
    env: { ...process.env, CRM_BASE_URL: url, CRM_API_KEY: adminKey, NODE_ENV: 'development' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  const output = (schema.stdout ?? '') + (schema.stderr ?? '');
  return {
    ok: schema.status === 0,
    step: schema.status === 0 ? undefined : 'schema',
    output,
    stdout: schema.stdout ?? '',
    settings: settingsFrom(schema.stdout ?? ''),
  };
}
