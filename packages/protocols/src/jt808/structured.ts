// Structured JT/T 808 commands carried by the platform's text command path. A stored command's content is text;
// contents that start with `#JT808:` are not sent as a 0x8300 text message but built into the binary message
// they name, for the version the terminal speaks (known only on its connection):
//   #JT808:SERVER,<host>,<port>         0x8103 main server address and TCP port (transfer IP)
//   #JT808:PARAMS,<id>=<value>;…        0x8103 any parameters (ids in hex, e.g. 0029=30;0013=a.example.com);
//                                       a part server=<host>:<port> sets the main server as the edition wants
//   #JT808:QUERY                        0x8104 query all parameters (answered by 0x0104)
// JT/T 808-2013 names the main server by 0x0013 (address, string) and 0x0018 (TCP port, DWORD); JT/T 808-2019
// writes both into 0x0013 as "host:port" and no longer uses 0x0018 for it.
import type { Jt808Version } from './context.ts';
import { type Jt808Parameter, jt808QueryParameters, jt808SetParameters, jt808Target } from './encoder.ts';

export const JT808_STRUCTURED_PREFIX = '#JT808:';

export type Jt808StructuredCommand =
  | { kind: 'server'; host: string; port: number }
  | { kind: 'params'; parameters: { id: number; value: string }[]; server?: { host: string; port: number } }
  | { kind: 'query' };

/** Parameter ids whose values are strings (APN, user, password, server addresses); other digits go as DWORD. */
const STRING_PARAMETERS = new Set([0x0010, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016, 0x0017, 0x001a, 0x001d]);

export function isJt808Structured(content: string): boolean {
  return content.startsWith(JT808_STRUCTURED_PREFIX);
}

/** The content of a transfer-IP command for a JT/T 808 terminal. */
export function jt808ServerContent(host: string, port: number): string {
  return `${JT808_STRUCTURED_PREFIX}SERVER,${host},${port}`;
}

/** The content of a 0x8103 carrying the given parameters (id → value). */
export function jt808ParamsContent(parameters: Record<string, string | number>): string {
  const parts = Object.entries(parameters).map(([id, v]) => `${id.replace(/^0x/i, '').padStart(4, '0')}=${v}`);
  return `${JT808_STRUCTURED_PREFIX}PARAMS,${parts.join(';')}`;
}

export const JT808_QUERY_CONTENT = `${JT808_STRUCTURED_PREFIX}QUERY`;

/** Reads a structured content; null when it is not one or is malformed. */
export function parseJt808Structured(content: string): Jt808StructuredCommand | null {
  if (!isJt808Structured(content)) return null;
  const rest = content.slice(JT808_STRUCTURED_PREFIX.length);
  if (rest === 'QUERY') return { kind: 'query' };
  const server = /^SERVER,([^,;:\s]{1,200}),(\d{1,5})$/.exec(rest);
  if (server) {
    const port = Number(server[2]);
    if (port < 1 || port > 65535) return null;
    return { kind: 'server', host: server[1] as string, port };
  }
  if (rest.startsWith('PARAMS,')) {
    const parameters: { id: number; value: string }[] = [];
    let server: { host: string; port: number } | undefined;
    for (const part of rest.slice(7).split(';')) {
      const s = /^server=([^,;:\s]{1,200}):(\d{1,5})$/.exec(part);
      if (s) {
        server = { host: s[1] as string, port: Number(s[2]) };
        if (server.port < 1 || server.port > 65535) return null;
        continue;
      }
      const m = /^([0-9A-Fa-f]{1,8})=(.*)$/.exec(part);
      if (!m) return null;
      parameters.push({ id: Number.parseInt(m[1] as string, 16), value: m[2] as string });
    }
    if (parameters.length === 0 && !server) return null;
    return server ? { kind: 'params', parameters, server } : { kind: 'params', parameters };
  }
  return null;
}

/** The 0x8103 parameters that set the main server, per version. */
export function serverParameters(host: string, port: number, version: Jt808Version): Jt808Parameter[] {
  if (version === '2019') return [{ id: 0x0013, value: `${host}:${port}` }];
  return [
    { id: 0x0013, value: host },
    { id: 0x0018, value: port },
  ];
}

function parameterOf(p: { id: number; value: string }): Jt808Parameter {
  if (!STRING_PARAMETERS.has(p.id) && /^\d{1,10}$/.test(p.value) && Number(p.value) <= 0xffffffff) {
    return { id: p.id, value: Number(p.value) };
  }
  return { id: p.id, value: p.value };
}

/**
 * Builds the frame of a structured command for a terminal speaking `version`; null when `content` is not a
 * valid structured command (the caller then sends it as text).
 */
export function encodeJt808Structured(
  content: string,
  terminalId: string,
  version: Jt808Version,
  serial: number,
): { frame: Buffer; messageId: number } | null {
  const command = parseJt808Structured(content);
  if (!command) return null;
  const target = jt808Target(terminalId, version);
  if (command.kind === 'query') return { frame: jt808QueryParameters(target, serial), messageId: 0x8104 };
  const parameters =
    command.kind === 'server'
      ? serverParameters(command.host, command.port, version)
      : [
          ...(command.server ? serverParameters(command.server.host, command.server.port, version) : []),
          ...command.parameters.map(parameterOf),
        ];
  return { frame: jt808SetParameters(target, serial, parameters), messageId: 0x8103 };
}
