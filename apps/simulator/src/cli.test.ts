import { describe, expect, it } from 'vitest';
import { parseSimulateArgs } from './cli.ts';

describe('carhere simulate options', () => {
  it('takes phones over the OsmAnd protocol, on port 5055 by default', () => {
    expect(parseSimulateArgs(['--protocol', 'osmand', '--devices', '3'])).toMatchObject({
      protocol: 'osmand',
      devices: 3,
      port: 5055,
      firstTerminalId: '868120000000000',
    });
    expect(parseSimulateArgs(['--protocol=gt06'])).toMatchObject({ protocol: 'gt06', port: 5023 });
  });
  it('names the protocols it knows when given another', () => {
    expect(parseSimulateArgs(['--protocol', 'tk103'])).toBe('--protocol must be gt06, jt808 or osmand');
  });
});
