// Live sessions of this gateway process: every connection, and the one session bound to each device.
// A device that connects again replaces its old session; silent connections are closed by one sweep
// (no timer per socket, which keeps an idle connection small).

export interface RegisteredSession {
  readonly key: string;
  deviceId: string | null;
  lastActivity: number;
  close(reason: 'replaced' | 'idle' | 'shutdown'): void;
  /** Stops reading from the connection (graceful shutdown). */
  hold?(): void;
}

export class SessionRegistry {
  private readonly all = new Set<RegisteredSession>();
  private readonly byDevice = new Map<string, RegisteredSession>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: number) {}

  start(): void {
    const every = Math.max(250, Math.min(30_000, Math.floor(this.idleMs / 4)));
    this.timer = setInterval(() => this.closeIdle(Date.now()), every);
    this.timer.unref();
  }

  get size(): number {
    return this.all.size;
  }

  get boundCount(): number {
    return this.byDevice.size;
  }

  add(session: RegisteredSession): void {
    this.all.add(session);
  }

  /** Binds a device to its new session; an older session of the same device is closed as replaced. */
  bind(deviceId: string, session: RegisteredSession): void {
    const old = this.byDevice.get(deviceId);
    this.byDevice.set(deviceId, session);
    if (old && old !== session) old.close('replaced');
  }

  sessionOf(deviceId: string): RegisteredSession | undefined {
    return this.byDevice.get(deviceId);
  }

  remove(session: RegisteredSession): void {
    this.all.delete(session);
    if (session.deviceId && this.byDevice.get(session.deviceId) === session) this.byDevice.delete(session.deviceId);
  }

  closeIdle(now: number): void {
    for (const s of this.all) if (now - s.lastActivity > this.idleMs) s.close('idle');
  }

  holdAll(): void {
    for (const s of this.all) s.hold?.();
  }

  closeAll(): void {
    for (const s of [...this.all]) s.close('shutdown');
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
