/**
 * docs/civicrm-setup.md followed literally (tools/civicrm/follow-setup-guide.mjs), each run in a
 * copy of the repository of its own (the guide's `npm run build` leaves this checkout's dist/
 * alone, and two runs side by side do not share a folder): the files git tracks or would track,
 * node_modules hard-linked (the guide's `npm install` then finds it complete).
 *
 * One production build serves every run: `startProductionBuild` builds it once, in the
 * background, while the sites install; every copy shares that build's Nx cache (and the records
 * of what it holds), so each guide's `npm run build` (and an upgrade run's) runs as written and
 * Nx restores the bundles from the same sources. The summary says when it did.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCaptured } from '../harness/captured-run.mjs';
import { settingsFileOf } from './follow-setup-guide.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Settings the production build checks for (it bakes neither in): present, as in the guide. */
const BUILD_SETTINGS = { CRM_BASE_URL: 'http://127.0.0.1:9', CRM_API_KEY: 'production-build-check' };

export function createGuideRuns({ slot, adminKey }) {
  const prefix = `/tmp/checkin-guide-${slot}`;
  const shared = {
    NX_CACHE_DIRECTORY: `${prefix}-nx-cache`,
    NX_WORKSPACE_DATA_DIRECTORY: `${prefix}-nx-data`,
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
  };
  const copies = [];
  let build;

  function copyRepository(name) {
    const dir = `${prefix}-${name}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const capture = { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] };
    const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], capture);
    const list = join(dir, '.guide-files');
    writeFileSync(list, files.stdout ?? '');
    const copied =
      files.status === 0 &&
      spawnSync('bash', ['-c', `tar -cf - --null -T "$1" | tar -xf - -C "$2"`, 'copy', list, dir], capture)
        .status === 0 &&
      spawnSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], capture).status === 0;
    rmSync(list, { force: true });
    if (!copied) throw new Error(`could not copy the repository to ${dir}`);
    copies.push(dir);
    return dir;
  }

  /** Without CRM_*, NODE_ENV, PORT or PUBLIC_BASE_URL of the suite's own environment. */
  function cleanEnvironment() {
    return Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^(CRM_|NODE_ENV$|PORT$|PUBLIC_BASE_URL$|NX_)/.test(name),
      ),
    );
  }

  return {
    /**
     * `npm run build` once, in a copy of its own, in the background. `wait()` answers
     * `{ ok, seconds, output }`; the guides wait for it before their own build.
     */
    startProductionBuild() {
      const dir = copyRepository('build');
      const started = Date.now();
      rmSync(shared.NX_CACHE_DIRECTORY, { recursive: true, force: true });
      rmSync(shared.NX_WORKSPACE_DATA_DIRECTORY, { recursive: true, force: true });
      const done = runCaptured(process.execPath, [join(dir, 'tools', 'build', 'production-build.mjs')], {
        cwd: dir,
        env: { ...cleanEnvironment(), ...shared, ...BUILD_SETTINGS },
        timeoutMs: 900_000,
      });
      let seconds;
      build = async () => {
        const { ok, stdout } = await done;
        seconds ??= Math.round((Date.now() - started) / 1000);
        return { ok, seconds, output: stdout };
      };
      return build;
    },

    /** The shared build's outcome (undefined when none was started). */
    productionBuild: () => build?.(),

    /** A fresh copy of the repository for one guide run (or an upgrade run). */
    copy: copyRepository,

    /** The environment a command in a copy runs with to restore the shared production build. */
    sharedBuildEnvironment: () => ({ ...shared }),

    /**
     * Runs docs/civicrm-setup.md's commands (`--until-stop` or `--stop`) in `guide.dir` against
     * one site: whether they succeeded, and whether Nx restored the guide's build.
     */
    async follow(part, guide) {
      const result = await runCaptured(
        process.execPath,
        [join(root, 'tools', 'civicrm', 'follow-setup-guide.mjs'), '--run', guide.dir, part],
        {
          cwd: guide.dir,
          env: {
            ...cleanEnvironment(),
            ...shared,
            GUIDE_CIVICRM_URL: guide.url,
            GUIDE_CIVICRM_ADMIN_KEY: adminKey,
            GUIDE_CIVICRM_SITE_DIR: guide.site,
            GUIDE_CHECKIN_URL: `http://127.0.0.1:${guide.port}`,
            GUIDE_CHECKIN_PORT: String(guide.port),
          },
          timeoutMs: 900_000,
        },
      );
      const restored =
        /read the output from the cache instead of running the command for (\d+) out of (\d+) tasks/.exec(
          result.stdout,
        );
      return {
        ok: result.ok,
        output: result.stdout,
        buildRestored: restored && restored[1] !== '0' ? `${restored[1]} of ${restored[2]}` : null,
      };
    },

    /** The schema installer's output of a guide run (its settings: CRM_ACTIVITY_CUSTOM_GROUP=…). */
    installerOutput: (guide) => readFileSync(join(guide.dir, 'crm-schema.out'), 'utf8'),

    /** The key of the API user the guide created (CRM_API_KEY in its settings file), or ''. */
    apiKey: (guide) =>
      /^CRM_API_KEY='([^']*)'$/m.exec(
        existsSync(settingsFileOf(guide.dir)) ? readFileSync(settingsFileOf(guide.dir), 'utf8') : '',
      )?.[1] ?? '',

    /** The service the guide started, when it is still running: its pid file. */
    pidFile(guide) {
      const file = join(guide.dir, 'checkin.pid');
      return existsSync(file) ? file : null;
    },

    /** Removes every copy and the shared cache (node_modules is hard-linked, not copied). */
    removeAll() {
      for (const dir of copies) rmSync(dir, { recursive: true, force: true });
      rmSync(shared.NX_CACHE_DIRECTORY, { recursive: true, force: true });
      rmSync(shared.NX_WORKSPACE_DATA_DIRECTORY, { recursive: true, force: true });
    },
  };
}
