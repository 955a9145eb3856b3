// One TCP listener per protocol. Each accepted connection becomes a Session with its own codec state.
import { createServer, type Server, type Socket } from 'node:net';
import type { ProtocolName } from '@carhere/protocols';
import type { ConnectionCodec } from './protocol.ts';
import { Session, type SessionContext } from './session.ts';

/**
 * Connections the kernel may hold finished but not yet accepted. In a reconnect storm the device's side of the
 * handshake completes before the gateway accepts; beyond this queue the kernel drops the handshake's last packet
 * and the device only gets in after its SYN-ACK retransmits (1, 2, 4 … s). The kernel caps the figure at
 * net.core.somaxconn (4096 on many systems): docs/deployment.md says when to raise it.
 */
const ACCEPT_BACKLOG = 65_535;

export class DeviceListener {
  private server: Server | null = null;
  private boundPort = 0;
  /** Open connections accepted by this listener. */
  open = 0;

  constructor(
    readonly protocol: ProtocolName,
    private readonly port: number,
    private readonly host: string,
    private readonly newCodec: () => ConnectionCodec,
    private readonly ctx: SessionContext,
  ) {}

  /** The port actually bound (differs from the configured one when that was 0). */
  get listeningPort(): number {
    return this.boundPort;
  }

  async start(): Promise<number> {
    const server = createServer({ noDelay: true }, (socket: Socket) => this.accept(socket));
    server.on('error', (err) => this.ctx.onError(err));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.port, host: this.host, backlog: ACCEPT_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const addr = server.address();
    this.boundPort = typeof addr === 'object' && addr ? addr.port : this.port;
    return this.boundPort;
  }

  private accept(socket: Socket): void {
    socket.setKeepAlive(true, 60_000);
    this.open++;
    socket.once('close', () => this.open--);
    try {
      new Session(socket, this.newCodec(), this.ctx);
    } catch (err) {
      this.ctx.onError(err);
      socket.destroy();
    }
  }

  /** Stops accepting; open sessions are closed by the registry. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
