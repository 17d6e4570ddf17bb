#!/usr/bin/env node
/**
 * An Nx runtime input of the back end's build (backend/project.json): prints which required CRM
 * settings the build's environment holds, by name only (never a value), so a production build
 * checked without them is never restored from Nx's cache for one that has them, or the reverse.
 */
import { readFileSync } from 'node:fs';

const required = JSON.parse(
  readFileSync(new URL('../../backend/src/app/config/required-crm-settings.json', import.meta.url), 'utf8'),
);
const present = required.map((name) => `${name}=${process.env[name]?.trim() ? 'set' : 'unset'}`);
process.stdout.write(`${present.join(' ')}\n`);
