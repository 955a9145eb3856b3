import { CancelledError, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DeviceListFilter, findAllDevices, findDevices } from './api.ts';
import { DEVICE_ROW_FIELDS, type DeviceRowTuple, decodeDeviceRows } from './deviceRows.ts';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const s = (seconds: number) => NOW - seconds * 1000;
const DAY = 86_400_000;

// Tuples as the server writes them (fields: id, terminalID, nickname, carNumber, state, expire, iconType,
// deviceType, user_id, lat, lon, speed, course, utcTime, stateTime).
const TUPLES: DeviceRowTuple[] = [
  [11, '861000000000001', 'Bus 1', '京A00001', 0, NOW + 30 * DAY, 3, 2, 501, 39.9, 116.4, 130, 90, s(5), s(5)],
  [12, '861000000000002', 'Truck', '', 0, null, 1, 0, 501, 39.9, 116.4, 70, 0, s(10), s(2)],
  [13, '861000000000003', '  ', ' ', 0, null, 1, 0, 502, 39.9, 116.4, 40, 0, s(59), null],
  [14, '861000000000004', '', '', 0, null, 1, 0, 502, 39.9, 116.4, 40, 0, s(60), s(1)],
  [15, '861000000000005', '', '', 0, null, 1, 0, 502, 0, 0, 0, null, s(1), s(1)],
  [16, '861000000000006', '', '', 0, null, 1, 0, null, null, null, null, null, null, null],
  [17, '861000000000007', '', '', 1, NOW - 1, 4, 5, 503, 39.9, 116.4, 0, 0, s(3600), s(600)],
  [18, '861000000000008', '', '', 1, null, 4, 5, 503, null, null, null, null, null, s(7200)],
  [19, '861000000000009', 'New', '', 2, NOW + DAY, 12, 16, 504, null, null, null, null, null, null],
];

const page = (rows: DeviceRowTuple[], now = NOW) => ({ fields: [...DEVICE_ROW_FIELDS], rows, now });

describe('device list rows format', () => {
  it('decodes every tuple with the domain rules at the server’s ordering time', () => {
    const rows = decodeDeviceRows(page(TUPLES));
    expect(rows.map((r) => r.id)).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19']);
    expect(rows.map((r) => r.displayName)).toEqual([
      '京A00001',
      'Truck',
      '861000000000003',
      '861000000000004',
      '861000000000005',
      '861000000000006',
      '861000000000007',
      '861000000000008',
      'New',
    ]);
    expect(rows.map((r) => r.state)).toEqual(['zx', 'zx', 'zx', 'zx', 'zx', 'zx', 'lx', 'lx', 'wjh']);
    // overspeed (> 120), fast (> 60), moving, stop at 60 s, no valid position (0,0 and none), expired, offline,
    // not activated (offline icon).
    expect(rows.map((r) => r.carIconState)).toEqual([
      'overspeed',
      'fast',
      'moving',
      'stop',
      'unknown',
      'unknown',
      'expired',
      'offline',
      'offline',
    ]);
    expect(rows.map((r) => r.markerIcon)).toEqual([3, 2, 1, 4, 0, 0, 6, 5, 5]);
    expect(rows[0]).toEqual({
      id: '11',
      terminalID: '861000000000001',
      displayName: '京A00001',
      nickname: 'Bus 1',
      carNumber: '京A00001',
      state: 'zx',
      carIconState: 'overspeed',
      markerIcon: 3,
      expire: NOW + 30 * DAY,
      iconType: 3,
      deviceType: 2,
      user_id: '501',
      lat: 39.9,
      lon: 116.4,
      speed: 130,
      course: 90,
      utcTime: s(5),
      stateTime: s(5),
    });
    expect(rows[5].user_id).toBeNull();
    // The same tuple decoded later: the icon follows the time it is decoded at.
    expect(decodeDeviceRows(page([TUPLES[0]], NOW + 60_000))[0].carIconState).toBe('stop');
  });

  it('survives the JSON text the server sends, and refuses fields it does not know', () => {
    const text = JSON.stringify({ meta: { success: true }, data: { ...page(TUPLES), total: 9, hasMore: false } });
    const data = JSON.parse(text).data;
    expect(decodeDeviceRows(data)).toEqual(decodeDeviceRows(page(TUPLES)));
    expect(decodeDeviceRows(page([]))).toEqual([]);
    expect(() => decodeDeviceRows({ ...page(TUPLES), fields: ['id', 'terminalID'] })).toThrow(/fields/);
    const swapped = [...DEVICE_ROW_FIELDS] as string[];
    [swapped[9], swapped[10]] = [swapped[10], swapped[9]];
    expect(() => decodeDeviceRows({ ...page(TUPLES), fields: swapped })).toThrow(/fields/);
  });
});

const FILTER: DeviceListFilter = { userId: '5', includeChildren: true, tab: 'all', expiry: 'all', keyword: ' 86 ' };

function envelope(data: unknown): Response {
  return new Response(JSON.stringify({ meta: { success: true, message: 'ok', code: 200 }, data }), {
    headers: { 'content-type': 'application/json' },
  });
}

/** A fetch that never answers until aborted (then rejects as fetch does); records every call. */
function hangingFetch() {
  const calls: { body: Record<string, unknown>; signal: AbortSignal }[] = [];
  const fetch = vi.fn((_url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal;
    calls.push({ body: JSON.parse(String(init.body)), signal });
    return new Promise<Response>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
    });
  });
  return { calls, fetch };
}

describe('device list requests', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('findAllDevices asks for the whole list in the rows format and decodes it', async () => {
    const fetch = vi.fn(async () =>
      envelope({ ...page(TUPLES), pageNum: 1, pageSize: 100_000, total: 9, hasMore: false }),
    );
    vi.stubGlobal('fetch', fetch);
    const all = await findAllDevices(FILTER);
    expect(all.total).toBe(9);
    expect(all.hasMore).toBe(false);
    expect(all.rows.map((r) => r.terminalID)).toEqual(TUPLES.map((t) => t[1]));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/device/findByUserId');
    expect(JSON.parse(String(init.body))).toEqual({
      userId: '5',
      includeChildren: true,
      tab: 'all',
      expiry: 'all',
      keyword: '86',
      pageNum: 1,
      pageSize: 100_000,
      format: 'rows',
    });
  });

  it('cancelling the query aborts the request in flight (TanStack Query’s signal reaches fetch)', async () => {
    const { calls, fetch } = hangingFetch();
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const pending = client.fetchQuery({
      queryKey: ['devices', FILTER],
      queryFn: ({ signal }) => findAllDevices(FILTER, signal),
    });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].signal.aborted).toBe(false);
    await client.cancelQueries({ queryKey: ['devices'] });
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(calls[0].signal.aborted).toBe(true);
    client.clear();
  });

  it('a newer filter cancels the superseded page request, as the device list page asks for it', async () => {
    const { calls, fetch } = hangingFetch();
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = (f: DeviceListFilter) => ({
      queryKey: ['devices', f, { pageNum: 1, pageSize: 15 }],
      queryFn: ({ signal }: { signal: AbortSignal }) => findDevices(f, 1, 15, signal),
    });
    const observer = new QueryObserver(client, options(FILTER));
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    observer.setOptions(options({ ...FILTER, tab: 'online' }));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(calls[0].signal.aborted).toBe(true));
    expect(calls[1].body.tab).toBe('online');
    expect(calls[1].signal.aborted).toBe(false);
    // A cancelled request rejects quietly: the old query is back to idle, without an error to show.
    const old = client.getQueryCache().find({ queryKey: options(FILTER).queryKey, exact: true });
    await vi.waitFor(() => expect(old?.state.fetchStatus).toBe('idle'));
    expect(old?.state.error ?? null).toBeNull();
    unsubscribe();
    client.clear();
  });

  it('a failed request ends in an error (the list page then shows no rows), unlike a cancelled one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"meta":{"success":false,"message":"boom","code":500}}', { status: 500 })),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, {
      queryKey: ['devices', FILTER, { pageNum: 1, pageSize: 15 }],
      queryFn: ({ signal }) => findDevices(FILTER, 1, 15, signal),
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().isError).toBe(true));
    expect(observer.getCurrentResult().error?.message).toBe('boom');
    unsubscribe();
    client.clear();
  });
});
