/**
 * The Chromium every browser suite and bench runs: Debian's (CHROMIUM_PATH, default
 * /usr/bin/chromium; no browser download on this machine or in CI), headless, with these flags.
 */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

module.exports = { CHROMIUM_PATH, CHROMIUM_FLAGS };
