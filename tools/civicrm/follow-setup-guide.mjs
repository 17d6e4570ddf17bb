#!/usr/bin/env node
/**
 * Follows docs/civicrm-setup.md literally: extracts its shell blocks marked `<!-- guide:run -->`,
 * in order, and runs them in one bash session (`set -euo pipefail`), after the block marked
 * `<!-- guide:variables -->` with this script's values instead of the guide's examples. The blocks
 * marked `<!-- guide:stop -->` (stopping the service) come last.
 *
 *   node tools/civicrm/follow-setup-guide.mjs --print     the script it would run
 *   node tools/civicrm/follow-setup-guide.mjs --run DIR   run it in DIR (a fresh copy of the repository)
 *   ... --run DIR --until-stop   every block but the stop blocks: the service is left running, so
 *                                a test can use it (tools/civicrm/real-suite.mjs does)
 *   ... --run DIR --stop         the stop blocks only, in the same DIR
 *   ... --run DIR --steps 2-6 --from-shell
 *                                only the blocks of the guide's steps 2 to 6 (`## 2.` to `## 6.`),
 *                                with step 0's values taken from the calling shell's exported
 *                                variables (no GUIDE_ prefix): docs/upgrading.md runs the set-up
 *                                steps again this way, in the new release's folder
 *
 * The values come from the environment, named as in the guide's step 0 with a GUIDE_ prefix:
 * GUIDE_CIVICRM_URL, GUIDE_CIVICRM_ADMIN_KEY, GUIDE_CIVICRM_SITE_DIR, GUIDE_CHECKIN_URL,
 * GUIDE_CHECKIN_PORT. The guide's blocks read nothing else. Three have defaults (DEFAULTS):
 * GUIDE_CHECKIN_ENV_FILE, the settings file outside the checkout, is `<DIR>.env` beside the
 * folder the guide runs in (settingsFileOf), and the organizer is 'Olu Organizer' (a value
 * with a space, as the guide's quoting must carry it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GUIDE = join(root, 'docs', 'civicrm-setup.md');

const MARKER = /^<!-- guide:(run|variables|stop) -->\s*$/;

/**
 * The marked blocks of a guide, in order: `{ kind: 'run' | 'variables' | 'stop', code, line }`. A marker
 * must be followed (blank lines aside) by a ```sh block, or the guide is refused.
 */
export function extractBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  let step = 0;
  for (let index = 0; index < lines.length; index++) {
    const heading = /^## (\d+)\. /.exec(lines[index]);
    if (heading) step = Number(heading[1]);
    const marker = MARKER.exec(lines[index]);
    if (!marker) continue;
    let open = index + 1;
    while (open < lines.length && lines[open].trim() === '') open++;
    if (lines[open]?.trim() !== '```sh') {
      throw new Error(
        `docs/civicrm-setup.md line ${index + 1}: a guide marker must precede a \`\`\`sh block`,
      );
    }
    const close = lines.findIndex((line, at) => at > open && line.trim() === '```');
    if (close < 0) throw new Error(`docs/civicrm-setup.md line ${open + 1}: unclosed block`);
    blocks.push({ kind: marker[1], code: lines.slice(open + 1, close).join('\n'), line: open + 1, step });
    index = close;
  }
  return blocks;
}

/** The names the variables block exports, in order. */
export function variableNames(block) {
  return [...block.code.matchAll(/^export (\w+)=/gm)].map((match) => match[1]);
}

/**
 * One bash script: the guide's blocks, with `values` in place of the variables block. `part`:
 * 'all', 'until-stop' (leaves out the stop blocks) or 'stop' (the variables and the stop blocks).
 */
export function guideScript(markdown, values, part = 'all', steps = null) {
  const blocks = extractBlocks(markdown).filter(
    (block) => !steps || block.kind === 'variables' || (block.step >= steps[0] && block.step <= steps[1]),
  );
  const variables = blocks.filter((block) => block.kind === 'variables');
  if (variables.length !== 1) throw new Error('the guide needs exactly one guide:variables block');
  const names = variableNames(variables[0]);
  // values === null: the calling shell exported them (--from-shell); each must be set there.
  if (values === null) {
    return guideScript(
      markdown,
      Object.fromEntries(
        names.map((name) => [name, `\${${name}:?export ${name} first (docs/civicrm-setup.md, step 0)}`]),
      ),
      part,
      steps,
    ).replace(/^export (\w+)='(\$\{[^']*\})'$/gm, 'export $1="$2"');
  }
  const missing = names.filter((name) => values[name] === undefined);
  if (missing.length > 0)
    throw new Error(`no value for ${missing.map((name) => `GUIDE_${name}`).join(', ')}`);
  const parts = ['set -euo pipefail'];
  const stops = blocks.filter((block) => block.kind === 'stop');
  if (stops.some((block) => blocks.indexOf(block) < blocks.length - stops.length)) {
    throw new Error('the guide:stop blocks must be the last marked blocks');
  }
  for (const block of blocks) {
    if (part === 'until-stop' && block.kind === 'stop') continue;
    if (part === 'stop' && block.kind === 'run') continue;
    parts.push(`# docs/civicrm-setup.md, line ${block.line}`);
    parts.push(
      block.kind === 'variables'
        ? names.map((name) => `export ${name}=${shellQuote(values[name])}`).join('\n')
        : block.code,
    );
  }
  return `${parts.join('\n')}\n`;
}

function shellQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

/** The settings file the guide writes when it runs in `dir`: beside it, outside the checkout. */
export function settingsFileOf(dir) {
  return `${resolve(dir)}.env`;
}

/** Values step 0 names that a run need not be given. */
function defaults(dir) {
  return {
    CHECKIN_ENV_FILE: dir ? settingsFileOf(dir) : undefined,
    ORGANIZER_NAME: 'Olu Organizer',
    ORGANIZER_EMAIL: 'olu@example.org',
  };
}

function valuesFromEnvironment(markdown, dir) {
  const [variables] = extractBlocks(markdown).filter((block) => block.kind === 'variables');
  const fallback = defaults(dir);
  return Object.fromEntries(
    variableNames(variables ?? { code: '' }).map((name) => [
      name,
      process.env[`GUIDE_${name}`] ?? fallback[name],
    ]),
  );
}

function main(argv) {
  const markdown = readFileSync(GUIDE, 'utf8');
  if (argv[0] === '--print') {
    const values = valuesFromEnvironment(markdown);
    for (const name of Object.keys(values)) values[name] ??= `<GUIDE_${name}>`;
    process.stdout.write(guideScript(markdown, values));
    return 0;
  }
  if (argv[0] === '--run' && argv[1]) {
    const part = argv.includes('--until-stop') ? 'until-stop' : argv.includes('--stop') ? 'stop' : 'all';
    const range = argv[argv.indexOf('--steps') + 1];
    const steps = argv.includes('--steps')
      ? (/^(\d+)-(\d+)$/.exec(range ?? '') ?? []).slice(1).map(Number)
      : null;
    if (steps && steps.length !== 2) throw new Error('--steps takes a range, e.g. --steps 2-6');
    const values = argv.includes('--from-shell') ? null : valuesFromEnvironment(markdown, argv[1]);
    const script = guideScript(markdown, values, part, steps);
    const run = spawnSync('bash', ['-c', script], { cwd: argv[1], stdio: 'inherit' });
    return run.status ?? 1;
  }
  process.stderr.write(
    'Usage: follow-setup-guide.mjs --print | --run <fresh copy of the repository> [--until-stop | --stop]\n',
  );
  return 2;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
