// The audit log writer. For every write through the API (http/operations.ts decides what writes) it notes the
// named targets and their state before the handler runs; once the answer has gone out successfully it reads the
// state again and inserts one audit_log row. Rows are written in order on a background chain (never on the
// request's critical path after the handler) and the chain is drained when the server closes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { diffState, type RowState, readState } from './changes.ts';
import { type Targets, targetKeys, targetsOf } from './targets.ts';

interface Pending {
  operation: string;
  targets: Targets;
  before: RowState;
  /** meta.success of the answer, when the answer was an envelope. */
  success?: boolean;
}

export class AuditRecorder {
  private readonly pending = new WeakMap<FastifyRequest, Pending>();
  private chain: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Before the handler (after validation): what the write names and how those rows look now. */
  async before(req: FastifyRequest, operation: string): Promise<void> {
    const targets = targetsOf(operation, req.body, req.user?.id ?? null);
    const before = await readState(this.db, targets);
    this.pending.set(req, { operation, targets, before });
  }

  /** The answer's envelope (meta.success false: a refused write, not logged). */
  noteAnswer(req: FastifyRequest, payload: unknown): void {
    const p = this.pending.get(req);
    if (!p || !payload || typeof payload !== 'object') return;
    const meta = (payload as { meta?: { success?: unknown } }).meta;
    if (meta && typeof meta.success === 'boolean') p.success = meta.success;
  }

  /** After the answer went out: queue the row when the write succeeded. */
  after(req: FastifyRequest, reply: FastifyReply): void {
    const p = this.pending.get(req);
    this.pending.delete(req);
    if (!p || reply.statusCode >= 400 || p.success === false) return;
    const user = req.user;
    const row = {
      at: new Date(),
      user_id: user?.id ?? null,
      username: user?.username ?? '',
      role: user?.role ?? null,
      ip: req.ip,
      operation: p.operation,
      status: reply.statusCode,
    };
    this.waiting++;
    this.chain = this.chain.then(async () => {
      try {
        const after =
          p.before.size > 0 || Object.keys(p.targets).length > 0 ? await readState(this.db, p.targets) : new Map();
        const changes = diffState(p.before, after);
        await this.db
          .insertInto('audit_log')
          .values({
            ...row,
            targets: JSON.stringify(p.targets),
            target_keys: targetKeys(p.targets),
            changes: changes.length > 0 ? JSON.stringify(changes) : null,
          })
          .execute();
      } catch (err) {
        this.onError(err);
      } finally {
        this.waiting--;
      }
    });
  }

  /** Resolves once every queued row is written. */
  async flush(): Promise<void> {
    while (this.waiting > 0) await this.chain;
    await this.chain;
  }
}

declare module '../../context.ts' {
  interface AppServices {
    audit: AuditRecorder;
  }
}
