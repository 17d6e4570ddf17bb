#!/usr/bin/env node
/**
 * Sums a V8 CPU profile (`node --cpu-prof`, e.g. the overhead bench's with
 * BENCH_CPU_PROFILE_DIR set) by package and by function, self time:
 *
 *   node tools/bench/cpu-profile-summary.mjs <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

const [file, topArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/bench/cpu-profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArgument ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map();
for (let index = 0; index < profile.samples.length; index += 1) {
  const id = profile.samples[index];
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
}
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

function packageOf(url) {
  if (!url) return '(native, GC, idle)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('dist/backend')) return 'service code';
  return url;
}

const byPackage = new Map();
const byFunction = new Map();
for (const [id, micros] of selfMicros) {
  const { callFrame } = byId.get(id);
  const pkg = packageOf(callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  const name = `${callFrame.functionName || '(anonymous)'} ${pkg}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}
const print = (title, map) => {
  console.log(`\n${title} (self time, share of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
print('By package', byPackage);
print('By function', byFunction);
