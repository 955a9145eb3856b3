import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDecodeCli } from './decode.ts';

async function run(args: string[], lines: string[]): Promise<{ code: number; out: Record<string, unknown>[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  input.end(lines.join('\n') + '\n');
  const code = await runDecodeCli(args, input, output);
  return {
    code,
    out: text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
  };
}

describe('carhere decode', () => {
  it('writes one JSON object per GT06 line, sharing the login across lines', async () => {
    const { code, out } = await run(
      ['--protocol', 'gt06'],
      [
        '78780d01086471700328358100093f040d0a',
        '787822220f0c1d023305c9027ac8180c46586000140001cc00287d001f71000001000820860d0a',
        'not hex',
      ],
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject({ ok: true, protocol: 'gt06', messageId: 1, terminalId: '864717003283581' });
    expect(out[0].reply).toBe('78780501000955940d0a');
    expect(out[1]).toMatchObject({
      ok: true,
      messageId: 0x22,
      terminalId: '864717003283581',
      checksumOk: true,
      reply: null,
    });
    const [position] = out[1].positions as Record<string, unknown>[];
    expect(position.time).toBe('2015-12-29T02:51:05.000Z');
    expect(position.lat).toBeCloseTo(23.111693, 5);
    expect(position.lon).toBeCloseTo(114.409298, 5);
    expect(position.valid).toBe(true);
    expect(out[2]).toEqual({ ok: false, error: 'line is not a hex string' });
  });

  it('decodes JT/T 808 in GMT+8 with the version, the reply as hex and errors for bad frames', async () => {
    const { out } = await run(
      ['--protocol=jt808'],
      [
        '7e02000032013511221122000700000000000c000301578cc006ca3a5c00470000000014072317201501040000000030011631010bd07e',
        '7e0200',
      ],
    );
    expect(out[0]).toMatchObject({
      ok: true,
      protocol: 'jt808',
      messageId: 512,
      version: '2013',
      terminalId: '013511221122',
    });
    expect((out[0].positions as { time: string }[])[0].time).toBe('2014-07-23T09:20:15.000Z'); // 17:20:15 in Beijing
    expect(out[0].reply).toMatch(/^7e8001/);
    expect(out[1].ok).toBe(false);
    expect(typeof out[1].error).toBe('string');
  });

  it('applies --time-zone to GT06 device times', async () => {
    const { out } = await run(
      ['--protocol', 'gt06', '--time-zone', '+08:00'],
      ['787822220f0c1d023305c9027ac8180c46586000140001cc00287d001f71000001000820860d0a'],
    );
    expect((out[0].positions as { time: string }[])[0].time).toBe('2015-12-28T18:51:05.000Z');
  });

  it('rejects a missing or unknown protocol with exit code 2', async () => {
    expect((await run([], ['00'])).code).toBe(2);
    expect((await run(['--protocol', 'tk103'], ['00'])).code).toBe(2);
  });
});
