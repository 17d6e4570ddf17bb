/**
 * Loaded with `--require` (NODE_OPTIONS refuses --cpu-prof): profiles the whole process and writes
 * `<CPU_PROFILE_DIR>/service-<pid>.cpuprofile` when it exits. The inspector session of the main
 * thread answers synchronously, so this works inside an 'exit' handler.
 */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (error, result) => {
    if (!error) {
      writeFileSync(
        join(process.env.CPU_PROFILE_DIR, `service-${process.pid}.cpuprofile`),
        JSON.stringify(result.profile),
      );
    }
  });
});
