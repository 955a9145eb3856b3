// `carhere simulate --protocol gt06|jt808 --devices N --interval S --host H --port P [--first ID]`
import { defaultFirstTerminalId, Fleet, type FleetOptions } from './fleet.ts';

export const simulateUsage = `usage: carhere simulate --protocol gt06|jt808 [--devices N] [--interval S] [--host H] [--port P] [--first TERMINAL_ID]
  Drives N simulated trackers over TCP around Beijing: login, positions every S seconds, heartbeats, the odd alarm,
  replies to commands. The terminal ids (from --first, counting up) must be registered devices.`;

export function parseSimulateArgs(args: string[]): FleetOptions | string {
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
  if (protocol !== 'gt06' && protocol !== 'jt808') return '--protocol must be gt06 or jt808';
  const int = (key: string, fallback: number, min: number, max: number): number | string => {
    const raw = values.get(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) return `--${key} must be a number from ${min} to ${max}`;
    return n;
  };
  const devices = int('devices', 10, 1, 100_000);
  const interval = int('interval', 10, 0.01, 86_400);
  const port = int('port', protocol === 'gt06' ? 5023 : 5015, 1, 65_535);
  for (const v of [devices, interval, port]) if (typeof v === 'string') return v;
  const first = values.get('first') ?? defaultFirstTerminalId(protocol);
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
  const fleet = new Fleet(options);
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
