// `carhere simulate --protocol gt06|jt808|osmand --devices N --interval S --host H --port P [--first ID]`
import { BEIJING, defaultFirstTerminalId, Fleet, type FleetOptions, terminalIdAt } from './fleet.ts';
import { sendOsmandFix } from './osmand.ts';
import { seededRandom, VehicleTrack } from './track.ts';

export const simulateUsage = `usage: carhere simulate --protocol gt06|jt808|osmand [--devices N] [--interval S] [--host H] [--port P] [--first TERMINAL_ID]
  Drives N simulated trackers around Beijing: GT06 / JT/T 808 over TCP (login, positions every S seconds,
  heartbeats, the odd alarm, replies to commands), or phones over the OsmAnd HTTP protocol (a POST per fix to
  OSMAND_PORT, default 5055). The terminal ids (from --first, counting up) must be registered devices.`;

export type SimulateOptions = Omit<FleetOptions, 'protocol'> & { protocol: FleetOptions['protocol'] | 'osmand' };

export function parseSimulateArgs(args: string[]): SimulateOptions | string {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) return `unexpected argument "${a}"`;
    const [key, inline] = a.slice(2).split('=', 2);
    const value = inline ?? args[++i];
    if (value === undefined) return `--${key} needs a value`;
    values.set(key, value);
  }
  for (const key of values.keys()) {
    if (!['protocol', 'devices', 'interval', 'host', 'port', 'first'].includes(key)) return `unknown option --${key}`;
  }
  const protocol = values.get('protocol');
  if (protocol !== 'gt06' && protocol !== 'jt808' && protocol !== 'osmand')
    return '--protocol must be gt06, jt808 or osmand';
  const int = (key: string, fallback: number, min: number, max: number): number | string => {
    const raw = values.get(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) return `--${key} must be a number from ${min} to ${max}`;
    return n;
  };
  const devices = int('devices', 10, 1, 100_000);
  const interval = int('interval', 10, 0.01, 86_400);
  const port = int('port', protocol === 'gt06' ? 5023 : protocol === 'osmand' ? 5055 : 5015, 1, 65_535);
  for (const v of [devices, interval, port]) if (typeof v === 'string') return v;
  const first = values.get('first') ?? defaultFirstTerminalId(protocol === 'osmand' ? 'gt06' : protocol);
  if (!/^\d{5,20}$/.test(first)) return '--first must be a terminal id of 5 to 20 digits';
  return {
    protocol,
    devices: Math.floor(devices as number),
    interval: interval as number,
    host: values.get('host') ?? '127.0.0.1',
    port: port as number,
    firstTerminalId: first,
  };
}

/** Runs the simulator until SIGINT/SIGTERM, printing totals every 10 s. Returns the exit code. */
export async function runSimulator(args: string[], out: (line: string) => void = console.log): Promise<number> {
  const options = parseSimulateArgs(args);
  if (typeof options === 'string') {
    out(`${options}\n${simulateUsage}`);
    return 2;
  }
  if (options.protocol === 'osmand') return runPhones(options, out);
  const fleet = new Fleet({ ...options, protocol: options.protocol });
  out(
    `simulating ${options.devices} ${options.protocol} device(s) from ${options.firstTerminalId} → ${options.host}:${options.port}, every ${options.interval} s`,
  );
  const { connected, failed } = await fleet.start();
  out(
    `${connected} connected${failed.length > 0 ? `, ${failed.length} refused or unreachable (first: ${failed[0]})` : ''}`,
  );
  const report = setInterval(() => {
    const t = fleet.totals();
    out(
      `connected ${t.connected}  positions sent ${t.sent}  acked ${t.acked}  alarms ${t.alarms}  commands ${t.commands}`,
    );
  }, 10_000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(report);
  fleet.stop();
  const t = fleet.totals();
  out(`stopped: positions sent ${t.sent}, acked ${t.acked}`);
  return 0;
}

/** Phones over the OsmAnd HTTP protocol: one POST per fix and phone every interval, until SIGINT/SIGTERM. */
async function runPhones(options: SimulateOptions, out: (line: string) => void): Promise<number> {
  const base = `http://${options.host}:${options.port}`;
  const phones = Array.from({ length: options.devices }, (_, i) => {
    const id = terminalIdAt(options.firstTerminalId ?? defaultFirstTerminalId('gt06'), i);
    const track = new VehicleTrack({
      centerLat: BEIJING.lat,
      centerLon: BEIJING.lon,
      radiusKm: 15,
      maxSpeed: 80,
      random: seededRandom(Number(BigInt(id) % 2_147_483_647n)),
    });
    return { id, track };
  });
  out(`simulating ${options.devices} OsmAnd phone(s) from ${phones[0]?.id} → ${base}, every ${options.interval} s`);
  const totals = { sent: 0, stored: 0, refused: 0, failed: 0 };
  const tick = async () => {
    await Promise.all(
      phones.map(async (p, i) => {
        totals.sent++;
        try {
          const status = await sendOsmandFix(base, p.id, p.track.next(options.interval), i % 2 ? 'json' : 'query');
          if (status === 200) totals.stored++;
          else totals.refused++;
        } catch {
          totals.failed++;
        }
      }),
    );
  };
  await tick();
  const timer = setInterval(() => void tick(), options.interval * 1000);
  const report = setInterval(
    () => out(`sent ${totals.sent}  stored ${totals.stored}  refused ${totals.refused}  unreachable ${totals.failed}`),
    10_000,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  clearInterval(report);
  out(`stopped: sent ${totals.sent}, stored ${totals.stored}`);
  return 0;
}
