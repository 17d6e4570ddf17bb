/**
 * Loaded into the built service by the load suite (NODE_OPTIONS=--require, never in production):
 * on SIGUSR2 it runs full garbage collections and writes the heap still in use to the file named
 * by HEAP_PROBE_FILE. Resident memory cannot tell a leak from a heap that grew to serve 100
 * connections at once and keeps its pages; the heap that survives a full collection while the
 * service is idle can.
 */
const { renameSync, writeFileSync } = require('node:fs');
const { setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

const probeFile = process.env.HEAP_PROBE_FILE;
if (probeFile) {
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc');
  process.on('SIGUSR2', () => {
    // Twice: the first collection's finalizers can free more on the second.
    collectGarbage();
    collectGarbage();
    // Written whole, then renamed: the suite reads the file as soon as it appears.
    writeFileSync(`${probeFile}.partial`, JSON.stringify({ heapUsedBytes: process.memoryUsage().heapUsed }));
    renameSync(`${probeFile}.partial`, probeFile);
  });
}
