/**
 * The test and bench harness's real CiviCRM sites, started by civicrm.sh (CIVICRM_SH, else
 * ../shared/civicrm/civicrm.sh beside the repository): their environment, started one after
 * another in the background, and stopped. Used by tools/civicrm/real-suite.mjs and the benches'
 * site (tools/bench/civicrm-bench-site.mjs); the built service and emulator are processes.cjs's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The administrator's key every test site is installed with. */
export const ADMIN_KEY = 'civi-test-apikey-0123456789';

export function civicrmShPath() {
  return resolve(process.env.CIVICRM_SH ?? join(root, '..', 'shared', 'civicrm', 'civicrm.sh'));
}

/**
 * civicrm.sh's settings for a site in `base` on `port` (MariaDB on `dbPort`, else port + 6). TMPDIR, which
 * MariaDB takes for its temporary tables, is the site's own: with the shared /tmp, a site's
 * MariaDB crashed (signal 11, creating a temporary table) the second another site's
 * `mariadb-install-db` ran. `prepareSiteFolder` makes it world-writable and sticky like /tmp:
 * MariaDB runs as its own user, not as the suite's.
 */
export function siteEnvironment({
  base,
  port,
  dbPort = port + 6,
  pack,
  timeZone = 'UTC',
  adminKey = ADMIN_KEY,
}) {
  return {
    CIVICRM_BASE: base,
    TMPDIR: join(base, 'tmp'),
    CIVICRM_PORT: String(port),
    CIVICRM_DB_PORT: String(dbPort),
    ...(pack ? { CIVICRM_PACK: join(dirname(civicrmShPath()), pack) } : {}),
    CIVICRM_TIMEZONE: timeZone,
    CIVICRM_API_KEY: adminKey,
  };
}

/** `civicrm.sh <command>` for one site, waiting for it; its output captured or shown. */
export function civicrmSh(command, env, { capture = true, timeoutMs = 900_000 } = {}) {
  mkdirSync(env.TMPDIR, { recursive: true, mode: 0o1777 });
  spawnSync('chmod', ['1777', env.TMPDIR]);
  const result = spawnSync('bash', [civicrmShPath(), command], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    timeout: timeoutMs,
  });
  return { ok: result.status === 0, output: (result.stdout ?? '') + (result.stderr ?? '') };
}

/**
 * Starts sites one after another in one background shell (each reset first when `reset`), each
 * writing its civicrm.sh output and then its exit status to files of its own in `dir`, so a
 * suite tests the first site while the next ones install. `sites`: `{ name, env }`. Returns, per
 * name, a wait for that site: `{ ok, log, readyAfter }` (seconds from the start of the chain).
 */
export function startSitesInBackground(sites, { dir, reset }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const quote = (value) => `'${String(value).replace(/'/g, `'\\''`)}'`;
  const script = sites
    .map(({ name, env }) => {
      const assignments = Object.entries(env)
        .map(([variable, value]) => `${variable}=${quote(value)}`)
        .join(' ');
      const log = quote(join(dir, `${name}.log`));
      const status = quote(join(dir, `${name}.status`));
      const sh = quote(civicrmShPath());
      const resetFirst = reset ? `${assignments} bash ${sh} reset >> ${log} 2>&1; ` : '';
      const tmp = quote(env.TMPDIR);
      return `{ ${resetFirst}mkdir -p ${tmp} && chmod 1777 ${tmp}; ${assignments} timeout 900 bash ${sh} start >> ${log} 2>&1; echo $? > ${status}.tmp; mv ${status}.tmp ${status}; }`;
    })
    .join('\n');
  const started = Date.now();
  const out = openSync(join(dir, 'chain.log'), 'w');
  const chain = spawn('bash', ['-c', script], { cwd: root, stdio: ['ignore', out, out] });
  closeSync(out);
  chain.unref();
  return Object.fromEntries(
    sites.map(({ name }) => [
      name,
      async () => {
        const status = join(dir, `${name}.status`);
        while (!existsSync(status)) await delay(500);
        return {
          ok: readFileSync(status, 'utf8').trim() === '0',
          log: readFileSync(join(dir, `${name}.log`), 'utf8'),
          // The status file's time: when the site was ready, even when nobody was waiting yet.
          readyAfter: Math.round((statSync(status).mtimeMs - started) / 1000),
        };
      },
    ]),
  );
}

/** Whether something accepts connections on the port (on 127.0.0.1). */
export function portAnswers(port) {
  return new Promise((resolvePort) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolvePort(true);
    });
    socket.once('error', () => resolvePort(false));
  });
}
