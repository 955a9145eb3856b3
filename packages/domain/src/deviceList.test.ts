import { describe, expect, it } from 'vitest';
import {
  countTabs,
  type DeviceListEntry,
  displayName,
  filterByTab,
  LIST_RUN_RANK,
  lastReportTime,
  listRunRank,
  OFFLINE_HIDE_AFTER_MS,
  sortDevices,
} from './deviceList.ts';

const NOW = 1_700_000_000_000;
const device = (terminalID: string, extra: Partial<DeviceListEntry> = {}): DeviceListEntry => ({
  terminalID,
  state: 'zx',
  ...extra,
});
const at = (speed: number, ageMs: number, stateAgeMs?: number) => ({
  lat: 30,
  lon: 120,
  speed,
  utcTime: NOW - ageMs,
  stateTime: stateAgeMs === undefined ? undefined : NOW - stateAgeMs,
});

describe('displayName', () => {
  it('carNumber, else nickname, else terminalID; blanks skipped', () => {
    expect(displayName({ terminalID: '1', carNumber: '粤B12345', nickname: 'Van' })).toBe('粤B12345');
    expect(displayName({ terminalID: '1', carNumber: '  ', nickname: 'Van' })).toBe('Van');
    expect(displayName({ terminalID: '1', carNumber: null, nickname: '' })).toBe('1');
    expect(displayName({ terminalID: '1' })).toBe('1');
  });
});

describe('ordering', () => {
  it('run-state ranks: moving 1, stopped 2, no position 3, offline 4', () => {
    expect(LIST_RUN_RANK).toEqual({ moving: 1, stopped: 2, noPosition: 3, offline: 4 });
    expect(listRunRank(device('a', { location: at(150, 1_000) }), NOW)).toBe(1);
    expect(listRunRank(device('a', { location: at(5, 1_000) }), NOW)).toBe(2);
    expect(listRunRank(device('a'), NOW)).toBe(3);
    expect(listRunRank(device('a', { state: 'lx' }), NOW)).toBe(4);
  });

  it('online by rank then position age, offline by recency, not activated last', () => {
    const list = [
      device('wjh-1', { state: 'wjh' }),
      device('off-old', { state: 'lx', location: at(0, 50_000, 50_000) }),
      device('on-nopos'),
      device('on-stop', { location: at(0, 5_000) }),
      device('off-never', { state: 'lx' }),
      device('on-moving-older', { location: at(40, 30_000) }),
      device('off-recent', { state: 'lx', location: at(0, 90_000, 10_000) }),
      device('on-moving-fresh', { location: at(40, 2_000) }),
      device('on-stale', { location: at(40, 61_000) }),
    ];
    expect(sortDevices(list, NOW).map((d) => d.terminalID)).toEqual([
      'on-moving-fresh',
      'on-moving-older',
      'on-stop',
      'on-stale',
      'on-nopos',
      'off-recent',
      'off-old',
      'off-never',
      'wjh-1',
    ]);
  });

  it('breaks ties by terminalID and leaves the input untouched', () => {
    const list = [device('b', { state: 'wjh' }), device('a', { state: 'wjh' })];
    expect(sortDevices(list, NOW).map((d) => d.terminalID)).toEqual(['a', 'b']);
    expect(list.map((d) => d.terminalID)).toEqual(['b', 'a']);
  });

  it('lastReportTime: stateTime, else utcTime, else null', () => {
    expect(lastReportTime(device('a', { location: at(0, 10, 5) }))).toBe(NOW - 5);
    expect(lastReportTime(device('a', { location: at(0, 10) }))).toBe(NOW - 10);
    expect(lastReportTime(device('a'))).toBeNull();
  });
});

describe('tabs', () => {
  const list = [
    device('on'),
    device('on-expired', { expire: NOW - 1 }),
    device('off', { state: 'lx' }),
    device('new', { state: 'wjh' }),
    device('odd', { state: 'xx' }),
  ];

  it('counts: state tabs split the list, expired overlaps', () => {
    expect(countTabs(list, NOW)).toEqual({ all: 5, online: 2, offline: 1, unactivated: 1, unknown: 1, expired: 1 });
    expect(countTabs([], NOW).all).toBe(0);
  });

  it('filters agree with the counts', () => {
    for (const tab of ['all', 'online', 'offline', 'unactivated', 'unknown', 'expired'] as const) {
      expect(filterByTab(list, tab, NOW)).toHaveLength(countTabs(list, NOW)[tab]);
    }
    expect(filterByTab(list, 'expired', NOW).map((d) => d.terminalID)).toEqual(['on-expired']);
  });
});

describe('special-brand rule', () => {
  it('3 days is 259200000 ms', () => {
    expect(OFFLINE_HIDE_AFTER_MS).toBe(259_200_000);
    expect(OFFLINE_HIDE_AFTER_MS).toBe(3 * 24 * 60 * 60 * 1000);
  });
});
