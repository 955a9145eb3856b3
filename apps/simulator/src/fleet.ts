// A fleet of simulated trackers: terminal ids from a base number, each with its own repeatable track around
// a centre (Beijing by default), all driven in real time.
import { type SimProtocol, SimulatedDevice } from './device.ts';
import { seededRandom, VehicleTrack } from './track.ts';

export interface FleetOptions {
  protocol: SimProtocol;
  devices: number;
  /** Seconds between positions. */
  interval: number;
  host: string;
  port: number;
  /** Terminal ids are consecutive numbers from this one (15 digits for GT06, 11 for JT/T 808 by default). */
  firstTerminalId?: string;
  centerLat?: number;
  centerLon?: number;
  radiusKm?: number;
  alarmProbability?: number;
}

export const BEIJING = { lat: 39.915, lon: 116.404 };

/** The n-th terminal id of a fleet: the base number plus n, keeping its width. */
export function terminalIdAt(base: string, n: number): string {
  return (BigInt(base) + BigInt(n)).toString().padStart(base.length, '0');
}

export function defaultFirstTerminalId(protocol: SimProtocol): string {
  return protocol === 'gt06' ? '868120000000000' : '13800000000';
}

export class Fleet {
  readonly devices: SimulatedDevice[];

  constructor(private readonly o: FleetOptions) {
    const base = o.firstTerminalId ?? defaultFirstTerminalId(o.protocol);
    this.devices = Array.from({ length: o.devices }, (_, i) => {
      const terminalId = terminalIdAt(base, i);
      const track = new VehicleTrack({
        centerLat: o.centerLat ?? BEIJING.lat,
        centerLon: o.centerLon ?? BEIJING.lon,
        radiusKm: o.radiusKm ?? 15,
        maxSpeed: 80,
        random: seededRandom(Number(BigInt(terminalId) % 2_147_483_647n)),
      });
      return new SimulatedDevice({
        protocol: o.protocol,
        terminalId,
        host: o.host,
        port: o.port,
        track,
        alarmProbability: o.alarmProbability,
      });
    });
  }

  get terminalIds(): string[] {
    return this.devices.map((d) => d.o.terminalId);
  }

  /** Connects every device (spread over a second so a big fleet does not arrive at once), then drives them. */
  async start(): Promise<{ connected: number; failed: string[] }> {
    const failed: string[] = [];
    const spread = Math.max(1, Math.floor(1000 / Math.max(1, this.devices.length)));
    await Promise.all(
      this.devices.map(async (d, i) => {
        await new Promise((r) => setTimeout(r, Math.min(i * spread, 5000)));
        try {
          await d.connect();
        } catch (err) {
          failed.push((err as Error).message);
        }
        d.startTimer(this.o.interval);
      }),
    );
    return { connected: this.devices.length - failed.length, failed };
  }

  totals(): { sent: number; acked: number; alarms: number; commands: number; connected: number } {
    let sent = 0;
    let acked = 0;
    let alarms = 0;
    let commands = 0;
    let connected = 0;
    for (const d of this.devices) {
      sent += d.stats.sent;
      acked += d.stats.acked;
      alarms += d.stats.alarms;
      commands += d.stats.commands;
      if (d.connected) connected++;
    }
    return { sent, acked, alarms, commands, connected };
  }

  stop(): void {
    for (const d of this.devices) d.stop();
  }
}
