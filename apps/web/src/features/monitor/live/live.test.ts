import { describe, expect, it } from 'vitest';
import { position } from '../testData.ts';
import { LiveBatcher, MAX_ALARMS_PER_BATCH } from './liveBatcher.ts';
import { parseLiveMessage } from './messages.ts';

describe('live messages', () => {
  it('parses known messages and refuses anything else', () => {
    expect(parseLiveMessage(JSON.stringify(position({ deviceId: '1', time: '2026-01-01T00:00:00Z' })))?.type).toBe(
      'position',
    );
    expect(parseLiveMessage('{"type":"pong"}')).toEqual({ type: 'pong' });
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage('{"type":"position","deviceId":"1"}')).toBeNull();
    expect(parseLiveMessage('{"type":"state"}')).toBeNull();
    expect(parseLiveMessage('{"type":"drop tables"}')).toBeNull();
    expect(parseLiveMessage('null')).toBeNull();
    expect(parseLiveMessage(42)).toBeNull();
  });

  it('parses in-app notifications (they carry an event name)', () => {
    const msg = { type: 'notification', id: 'u1', event: 'online', terminalID: '1', deviceName: 'Van', time: 'x' };
    expect(parseLiveMessage(JSON.stringify(msg))?.type).toBe('notification');
    expect(parseLiveMessage('{"type":"notification","id":"u1"}')).toBeNull();
  });
});

describe('live batcher', () => {
  it('keeps only the newest position of each device in a window', () => {
    const b = new LiveBatcher();
    b.add(position({ deviceId: '1', time: '2026-01-01T00:00:02Z', lat: 2 }));
    b.add(position({ deviceId: '1', time: '2026-01-01T00:00:01Z', lat: 1 }));
    b.add(position({ deviceId: '2', time: '2026-01-01T00:00:01Z', lat: 5 }));
    b.add(position({ deviceId: '1', time: '2026-01-01T00:00:03Z', lat: 3 }));
    const batch = b.take();
    expect(batch.received).toBe(4);
    expect(batch.positions.map((p) => [p.deviceId, p.lat])).toEqual([
      ['1', 3],
      ['2', 5],
    ]);
    expect(b.pending).toBe(false);
    expect(b.take().positions).toEqual([]);
  });

  it('caps the alarms of one window and says how many were left out', () => {
    const b = new LiveBatcher();
    for (let i = 0; i < MAX_ALARMS_PER_BATCH + 7; i++) {
      b.add({
        type: 'alarm',
        id: String(i),
        deviceId: '1',
        terminalID: 'x',
        alarmType: 1,
        name: 'sos',
        source: 'device',
        time: '2026-01-01T00:00:00Z',
        lat: null,
        lon: null,
        speed: null,
        read: false,
      });
    }
    const batch = b.take();
    expect(batch.alarms).toHaveLength(MAX_ALARMS_PER_BATCH);
    expect(batch.droppedAlarms).toBe(7);
  });
});
