// GATEWAY_WORKERS=N: N gateway worker processes on one machine sharing the device ports through Node's cluster
// module. The workers accept from the shared listening socket themselves (cluster.SCHED_NONE; Node 20 has no
// reusePort): in a reconnect storm a busy worker takes no new connection and an idle one does. With Node's default
// (the primary accepts every connection and hands it to a worker over IPC), 10,000 devices logging in at once went
// at half the speed of one process, and the primary held up to 8,945 of them open while they waited for a worker,
// so 50,000 ran it past the 20,000 open files of a process and connections were dropped.
// NODE_CLUSTER_SCHED_POLICY=rr still chooses the primary's round robin.
// The primary runs the rest of its role: the HTTP API and background jobs (--only all), or only health,
// readiness and metrics (--only gateway). A worker that dies is replaced; its devices reconnect and land on
// the other workers meanwhile. /metrics on the primary answers for the machine: the primary's figures and
// every worker's, summed.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { registry } from './metrics.ts';

type MetricsJson = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

const WORKER_ENV = 'CARHERE_GATEWAY_WORKER';
const ASK = 'carhere:metrics';
const ANSWER = 'carhere:metrics-answer';

interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  metrics: MetricsJson;
}

/** True in a process forked as a gateway worker. */
export function isGatewayWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

/** In a worker: answers the primary's metrics requests with this process's figures. */
export function answerMetricsRequests(): void {
  process.on('message', (msg: { type?: string; id?: number }) => {
    if (msg?.type !== ASK || typeof msg.id !== 'number') return;
    const id = msg.id;
    void registry.getMetricsAsJSON().then((metrics) => {
      process.send?.({ type: ANSWER, id, metrics } satisfies MetricsAnswer);
    });
  });
}

export interface WorkerPool {
  /** The workers alive now. */
  workers(): Worker[];
  /** Prometheus text: this process's metrics and every worker's, summed per series. */
  metrics(): Promise<string>;
  /** Asks every worker to stop gracefully and waits for them (at most `timeoutMs`, then they are killed). */
  stop(timeoutMs: number): Promise<void>;
}

export function startWorkerPool(
  count: number,
  log: (line: string) => void,
  env: Record<string, string> = {},
): WorkerPool {
  let stopping = false;
  let nextAsk = 1;
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  const fork = () => cluster.fork({ ...env, [WORKER_ENV]: '1' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log(`gateway worker ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
    fork();
  });
  cluster.on('online', (worker) => log(`gateway worker ${worker.process.pid} started`));
  cluster.on('listening', (worker, address) =>
    log(`gateway worker ${worker.process.pid} listening on port ${address.port}`),
  );
  for (let i = 0; i < count; i++) fork();
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());

  const ask = (w: Worker, timeoutMs: number): Promise<MetricsJson | null> =>
    new Promise((resolve) => {
      const id = nextAsk++;
      const timer = setTimeout(() => done(null), timeoutMs);
      const onMessage = (msg: MetricsAnswer) => {
        if (msg?.type === ANSWER && msg.id === id) done(msg.metrics);
      };
      const done = (value: MetricsJson | null) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        resolve(value);
      };
      w.on('message', onMessage);
      try {
        w.send({ type: ASK, id });
      } catch {
        done(null);
      }
    });

  return {
    workers: alive,
    async metrics() {
      const own = await registry.getMetricsAsJSON();
      const theirs = await Promise.all(alive().map((w) => ask(w, 2000)));
      const all = [own, ...theirs.filter((m): m is MetricsJson => m !== null)];
      return AggregatorRegistry.aggregate(all as never).metrics();
    },
    async stop(timeoutMs) {
      stopping = true;
      const workers = alive();
      const exited = Promise.all(
        workers.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve())))),
      );
      for (const w of workers) w.process.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs);
      });
      if ((await Promise.race([exited, late])) === 'late') {
        for (const w of alive()) w.process.kill('SIGKILL');
        await exited;
      }
      clearTimeout(timer);
    },
  };
}
