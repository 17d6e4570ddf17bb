import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CiviCrmHttpClient } from '../crm/civicrm-http.client';
import { MetricsService } from './metrics.service';

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("MetricsService observing the CRM client's connection pool", () => {
  it('counts the calls that waited for a connection and shows how many wait now', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((_request, response) => held.push(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const metrics = new MetricsService();
    const client = new CiviCrmHttpClient(
      {
        baseUrl: url,
        apiKey: 'key-0123456789abcdef',
        urlStyle: 'standard',
        timeoutMs: 5_000,
        maxConnections: 1,
        customGroups: { activity: 'A', contact: 'B' },
      },
      metrics,
    );
    try {
      const calls = [1, 2, 3].map((n) => client.api4('Activity', 'create', { values: { subject: `s${n}` } }));
      await until(() => held.length === 1);
      const during = await metrics.exposition();
      expect(during).toContain('checkin_crm_connection_waits_total 2');
      expect(during).toContain('checkin_crm_calls_waiting 2');
      for (let answered = 0; answered < 3; answered++) {
        await until(() => held.length === answered + 1);
        held[answered]?.writeHead(200, { 'Content-Type': 'application/json' }).end('{"values":[{"id":1}]}');
      }
      await Promise.all(calls);
      const after = await metrics.exposition();
      expect(after).toContain('checkin_crm_calls_waiting 0');
      expect(after).toContain('checkin_crm_calls_total{entity="Activity",action="create",outcome="ok"} 3');
    } finally {
      await client.onApplicationShutdown();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts a failed call under its failure', async () => {
    const metrics = new MetricsService();
    const client = new CiviCrmHttpClient(
      {
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'key-0123456789abcdef',
        urlStyle: 'standard',
        timeoutMs: 1_000,
        customGroups: { activity: 'A', contact: 'B' },
      },
      metrics,
    );
    await expect(client.api4('Activity', 'create', { values: {} })).rejects.toMatchObject({
      failure: 'unreachable',
    });
    expect(await metrics.exposition()).toContain(
      'checkin_crm_calls_total{entity="Activity",action="create",outcome="unreachable"} 1',
    );
    await client.onApplicationShutdown();
  });

  it('reports the self-check findings it is given, by code', async () => {
    const metrics = new MetricsService();
    metrics.reportSelfCheckFindings(() => [{ code: 'TIME_ZONE_MISMATCH' }, { code: 'PERMISSION_MISSING' }]);
    const text = await metrics.exposition();
    expect(text).toContain('checkin_self_check_findings{code="all"} 2');
    expect(text).toContain('checkin_self_check_findings{code="TIME_ZONE_MISMATCH"} 1');
  });
});
