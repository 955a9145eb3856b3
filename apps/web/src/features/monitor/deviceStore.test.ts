import { describe, expect, it } from 'vitest';
import { DeviceStore, fromLocation, withPosition } from './deviceStore.ts';
import { filterDevices, listCounts } from './list/filter.ts';
import { location, position } from './testData.ts';

const NOW = Date.parse('2026-01-01T00:00:30.000Z');

describe('monitor devices', () => {
  it('takes state, expiry and names from the server, and builds the search text', () => {
    const online = fromLocation(location({ deviceId: '1', carNumber: '京A12345', nickname: 'Bus' }));
    expect(online.state).toBe('zx');
    expect(online.carNumber).toBe('京A12345');
    expect(online.searchText).toContain('京a12345');
    expect(online.searchText).toContain('bus');
    // Activated, never sent a fix: offline (the server says so), not 'not activated'.
    const silent = fromLocation(location({ deviceId: '2', online: false, state: 'lx', lastSeen: null, utcTime: null }));
    expect(silent.state).toBe('lx');
    expect(silent.location).toBeNull();
    const inactive = fromLocation(
      location({ deviceId: '3', online: false, state: 'wjh', lastSeen: null, utcTime: null }),
    );
    expect(inactive.state).toBe('wjh');
    const expired = fromLocation(
      location({ deviceId: '4', online: false, state: 'lx', expire: '2025-06-01T00:00:00.000Z' }),
    );
    expect(expired.expire).toBe(Date.parse('2025-06-01T00:00:00.000Z'));
    expect(fromLocation(location({ deviceId: '5' })).expire).toBeNull();
  });

  it('a newer fix moves the device, an older one does not', () => {
    const d = fromLocation(location({ deviceId: '1' }));
    const moved = withPosition(d, position({ deviceId: '1', time: '2026-01-01T00:00:10Z', lat: 40, course: 45 }));
    expect(moved.location?.lat).toBe(40);
    expect(moved.course).toBe(45);
    const stale = withPosition(moved, position({ deviceId: '1', time: '2025-12-31T00:00:00Z', lat: 1 }));
    expect(stale.location?.lat).toBe(40);
    const invalid = withPosition(
      moved,
      position({ deviceId: '1', time: '2026-01-01T00:00:20Z', lat: 1, valid: false }),
    );
    expect(invalid.location?.lat).toBe(40);
  });

  it('applies batches, ignores devices of other users and orders by the domain rules', () => {
    const store = new DeviceStore();
    store.load([
      location({ deviceId: '1', online: false, lastSeen: '2025-12-01T00:00:00Z' }),
      location({ deviceId: '2', online: false, state: 'wjh', lastSeen: null, utcTime: null }),
      location({ deviceId: '3' }),
    ]);
    const v = store.getVersion();
    const { changed } = store.apply(
      [
        position({ deviceId: '3', time: '2026-01-01T00:00:25Z', speed: 50 }),
        position({ deviceId: '99', time: '2026-01-01T00:00:25Z' }),
      ],
      [],
    );
    expect(changed.map((d) => d.deviceId)).toEqual(['3']);
    expect(store.getVersion()).toBeGreaterThan(v);
    expect(store.sorted(NOW).map((d) => d.deviceId)).toEqual(['3', '1', '2']);
    store.apply(
      [],
      [
        {
          type: 'state',
          deviceId: '1',
          terminalID: 'x',
          online: true,
          stateTime: '2026-01-01T00:00:29Z',
          lastSeen: null,
        },
      ],
    );
    expect(store.get('1')?.state).toBe('zx');
  });

  it('filters by tab and by name, IMEI or plate, and counts the tabs by the domain rules', () => {
    const devices = [
      fromLocation(location({ deviceId: '1', displayName: 'Truck one', carNumber: '粤B88888' })),
      fromLocation(location({ deviceId: '2', displayName: 'Van', online: false })),
      fromLocation(location({ deviceId: '3', displayName: 'Bike', online: false, expire: '2025-12-31T00:00:00.000Z' })),
      fromLocation(location({ deviceId: '4', displayName: 'Stock', online: false, state: 'wjh', utcTime: null })),
      // Activated and silent: offline tab.
      fromLocation(location({ deviceId: '5', displayName: 'Quiet', online: false, utcTime: null, lastSeen: null })),
    ];
    expect(filterDevices(devices, 'all', 'truck', NOW).map((d) => d.deviceId)).toEqual(['1']);
    expect(filterDevices(devices, 'all', '粤b', NOW).map((d) => d.deviceId)).toEqual(['1']);
    expect(filterDevices(devices, 'all', devices[1].terminalID.slice(-4), NOW).map((d) => d.deviceId)).toEqual(['2']);
    expect(filterDevices(devices, 'offline', '', NOW).map((d) => d.deviceId)).toEqual(['2', '3', '5']);
    expect(filterDevices(devices, 'unactivated', '', NOW).map((d) => d.deviceId)).toEqual(['4']);
    expect(filterDevices(devices, 'expired', '', NOW).map((d) => d.deviceId)).toEqual(['3']);
    expect(listCounts(devices, NOW)).toEqual({ all: 5, online: 1, offline: 3, unactivated: 1, expired: 1 });
  });
});
