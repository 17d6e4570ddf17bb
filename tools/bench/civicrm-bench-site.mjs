/**
 * A CiviCRM site for the benches that need a real one (tools/bench/crm-routes.mjs, crm-scale.mjs):
 * started and stopped by the harness (tools/harness/civicrm-sites.mjs), spoken to over APIv4 (plain calls and batches), and its MariaDB
 * asked how many rows it examined (the Handler_read* counters, on the site's own socket).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { civicrmSh, siteEnvironment } from '../harness/civicrm-sites.mjs';

export function benchSite({ base, port, dbPort, adminKey }) {
  const url = `http://127.0.0.1:${port}`;
  const socket = join(base, 'run', 'mysqld.sock');
  const siteEnv = siteEnvironment({ base, port, dbPort, adminKey });

  /** `civicrm.sh <command>` (start, stop, reset) for this site, its output shown. */
  function civicrm(command) {
    if (!civicrmSh(command, siteEnv, { capture: false }).ok) throw new Error(`civicrm.sh ${command} failed`);
  }

  async function post(path, fields, key = adminKey) {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'X-Civi-Auth': `Bearer ${key}`, 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams(fields),
    });
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
    }
    return { status: response.status, bytes: Buffer.byteLength(text), body };
  }

  async function api4(entity, action, params = {}, key = adminKey) {
    const answer = await post(
      `/civicrm/ajax/api4/${entity}/${action}`,
      { params: JSON.stringify(params) },
      key,
    );
    if (answer.status !== 200)
      throw new Error(`${entity}.${action}: HTTP ${answer.status} ${answer.body.error_message}`);
    return answer.body.values;
  }

  /** One APIv4 batch request: `{ name: [entity, action, params] }` → `{ name: values }`, any error thrown. */
  async function batch(calls, key = adminKey) {
    const answer = await post('/civicrm/ajax/api4', { calls: JSON.stringify(calls) }, key);
    if (answer.status !== 200) throw new Error(`batch: HTTP ${answer.status}`);
    const values = {};
    for (const [name, result] of Object.entries(answer.body)) {
      if (!Array.isArray(result.values)) throw new Error(`batch ${name}: ${result.error_message}`);
      values[name] = result.values;
    }
    return values;
  }

  /**
   * Creates in batches of `size` calls, `parallel` batches at a time (the first alone: CiviCRM
   * fills its metadata cache on it, and two requests filling it at once collide on its unique
   * key); a call that failed is sent again once in the next request. The new ids in order.
   */
  async function createMany(entity, valuesList, { size = 100, parallel = 2 } = {}) {
    const ids = new Array(valuesList.length);
    const starts = [];
    for (let start = 0; start < valuesList.length; start += size) starts.push(start);
    async function send(start) {
      let pending = valuesList.slice(start, start + size).map((values, index) => [start + index, values]);
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        const answer = await post('/civicrm/ajax/api4', {
          calls: JSON.stringify(
            Object.fromEntries(pending.map(([at, values]) => [`c${at}`, [entity, 'create', { values }]])),
          ),
        });
        if (answer.status !== 200) throw new Error(`${entity} batch: HTTP ${answer.status}`);
        const failed = [];
        for (const [at, values] of pending) {
          const result = answer.body[`c${at}`];
          if (Array.isArray(result?.values)) ids[at] = result.values[0].id;
          else if (attempt < 2) failed.push([at, values]);
          else throw new Error(`${entity}.create: ${result?.error_message}`);
        }
        pending = failed;
      }
    }
    let next = 0;
    async function worker() {
      while (next < starts.length) {
        const start = starts[next];
        next += 1;
        await send(start);
      }
    }
    if (starts.length > 0) {
      next = 1;
      await send(starts[0]);
    }
    await Promise.all(Array.from({ length: parallel }, worker));
    return ids;
  }

  const sql = (query) => siteSql(socket, query);
  const rowsExamined = () => rowsExaminedOn(socket);

  return {
    url,
    base,
    siteDir: join(base, 'site'),
    socket,
    civicrm,
    post,
    api4,
    batch,
    createMany,
    sql,
    rowsExamined,
  };
}

/** A query on the site's database (its own socket, as root), tab-separated rows without names. */
export function siteSql(socket, query) {
  return execFileSync('mariadb', [`--socket=${socket}`, '-uroot', '-N', '-B', 'civicrm', '-e', query], {
    encoding: 'utf8',
  });
}

/** Rows MariaDB has examined since it started, all connections (Handler_read_*). */
export function rowsExaminedOn(socket) {
  const lines = siteSql(socket, "SHOW GLOBAL STATUS LIKE 'Handler_read%'").trim().split('\n');
  return lines.reduce((sum, line) => sum + Number(line.split('\t')[1] ?? 0), 0);
}
