// Prometheus metrics of this process (prom-client), served at GET /metrics as Prometheus text.
//
// One registry per process. Counters are incremented where things happen (sessions, the ingest batcher, HTTP,
// command transitions); gauges read their sources when scraped. Sources register themselves and unregister when
// they stop, so several servers in one process (tests) add up and a stopped one leaves nothing behind. Under
// GATEWAY_WORKERS the primary process answers /metrics for the machine: its own figures plus every worker's,
// asked over the cluster IPC channel and summed (ops/cluster.ts).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface GatewaySource {
  /** Open device connections per protocol. */
  connections(): Record<string, number>;
  /** Positions waiting for or being written. */
  ingestQueueDepth(): number;
}

export interface JobSource {
  /** Queued (not yet finished) jobs per queue name. */
  depth(): Promise<Record<string, number>>;
}

const gateways = new Set<GatewaySource>();
const liveHubs = new Set<{ readonly size: number }>();
const jobQueues = new Set<JobSource>();

export const registry = new Registry();
// (Gauges read their sources when scraped; they are registered here and need no name in the code.)
collectDefaultMetrics({ register: registry, prefix: 'carhere_' });

new Gauge({
  name: 'carhere_device_connections',
  help: 'Open device TCP connections by protocol',
  labelNames: ['protocol'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const g of gateways) for (const [protocol, n] of Object.entries(g.connections())) this.inc({ protocol }, n);
  },
});

export const framesReceived = new Counter({
  name: 'carhere_frames_received_total',
  help: 'Device frames received by protocol (rate() gives frames per second)',
  labelNames: ['protocol'] as const,
  registers: [registry],
});

export const decodeErrors = new Counter({
  name: 'carhere_decode_errors_total',
  help: 'Device frames that could not be decoded, by protocol',
  labelNames: ['protocol'] as const,
  registers: [registry],
});

new Gauge({
  name: 'carhere_ingest_queue_depth',
  help: 'Positions waiting for or being written to the database',
  registers: [registry],
  collect() {
    let n = 0;
    for (const g of gateways) n += g.ingestQueueDepth();
    this.set(n);
  },
});

export const ingestBatchSeconds = new Histogram({
  name: 'carhere_ingest_batch_seconds',
  help: 'Time from taking an ingest batch to its commit',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const positionsAcknowledged = new Counter({
  name: 'carhere_positions_acknowledged_total',
  help: 'Positions committed to the database (and so acknowledged to their devices)',
  registers: [registry],
});

export const busPublishDropped = new Counter({
  name: 'carhere_bus_publish_dropped_total',
  help: 'Bus (NATS) publishes dropped because the connection was down or the server had not taken the earlier ones',
  registers: [registry],
});

export const ingestRetries = new Counter({
  name: 'carhere_ingest_retries_total',
  help: 'Ingest batch writes that failed and were tried again',
  registers: [registry],
});

new Gauge({
  name: 'carhere_live_subscribers',
  help: 'Browsers connected to the live WebSocket (/api/ws)',
  registers: [registry],
  collect() {
    let n = 0;
    for (const h of liveHubs) n += h.size;
    this.set(n);
  },
});

export const httpSeconds = new Histogram({
  name: 'carhere_http_request_seconds',
  help: 'HTTP request latency by method, route and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const commandOutcomes = new Counter({
  name: 'carhere_command_outcomes_total',
  help: 'Device command transitions recorded by this process, by status (sent, answered, timeout, expired, …)',
  labelNames: ['status'] as const,
  registers: [registry],
});

new Gauge({
  name: 'carhere_job_queue_depth',
  help: 'Background jobs queued or running, by queue',
  labelNames: ['queue'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const q of jobQueues) {
      const depth = await q.depth().catch(() => ({}) as Record<string, number>);
      for (const [queue, n] of Object.entries(depth)) this.inc({ queue }, n);
    }
  },
});

/** Adds a source to the gauges; returns the function that removes it. */
export function watchGateway(source: GatewaySource): () => void {
  gateways.add(source);
  return () => gateways.delete(source);
}

export function watchLiveHub(hub: { readonly size: number }): () => void {
  liveHubs.add(hub);
  return () => liveHubs.delete(hub);
}

export function watchJobQueue(source: JobSource): () => void {
  jobQueues.add(source);
  return () => jobQueues.delete(source);
}
