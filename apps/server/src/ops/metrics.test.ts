// GET /metrics (Prometheus text) and request ids: the metrics token is asked for when configured, the figures
// of the process are there (HTTP latency by route pattern, not by URL), and every response names its request id
// (the caller's X-Request-Id when it is a short token, else a fresh one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/harness.ts';

describe('/metrics and request ids', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ metricsToken: 'scrape-token-1' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('asks for the token, then answers Prometheus text with the HTTP latency by route pattern', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().meta.success).toBe(false);

    await server.app.inject({ method: 'GET', url: '/api/health' });
    await server.app.inject({ method: 'GET', url: '/api/ready' });
    const res = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-token-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const name of [
      'carhere_device_connections',
      'carhere_frames_received_total',
      'carhere_decode_errors_total',
      'carhere_ingest_queue_depth',
      'carhere_ingest_batch_seconds',
      'carhere_positions_acknowledged_total',
      'carhere_live_subscribers',
      'carhere_command_outcomes_total',
      'carhere_job_queue_depth',
      'carhere_process_resident_memory_bytes',
    ]) {
      expect(res.body).toContain(`# TYPE ${name}`);
    }
    expect(res.body).toMatch(
      /carhere_http_request_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]/,
    );
  });

  it('names each request: the caller’s id when it is a short token, else a new UUID', async () => {
    const given = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-42.a' },
    });
    expect(given.headers['x-request-id']).toBe('lb-42.a');
    const odd = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'no spaces <allowed>' },
    });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers['x-request-id']).not.toBe(odd.headers['x-request-id']);
  });
});
