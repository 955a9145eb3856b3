// Decoder of the device list's 'rows' format (POST /device/findByUserId with format: 'rows'; the server writes it
// in apps/server/src/modules/device/listQueries.ts, listRowsJson): one tuple per device, in the list order,
// with only what a row needs. The derived fields (display name, car icon state, map state code) are computed
// here with the domain rules at the time the server ordered the list, so they equal the server's full items.
import {
  type CarIconState,
  carIconState,
  DEVICE_ROW_FIELDS,
  DEVICE_STATE,
  displayName,
  type MapStateCode,
  mapStateCode,
} from '@carhere/domain';
import type { TabCounts } from './api.ts';

/** The tuple fields, in order (the server sends them as `fields`). */
export { DEVICE_ROW_FIELDS };

/** One device: ids as numbers, state 0 online / 1 offline / 2 not activated, times in epoch ms. */
export type DeviceRowTuple = [
  id: number,
  terminalID: string,
  nickname: string,
  carNumber: string,
  state: 0 | 1 | 2,
  expire: number | null,
  iconType: number,
  deviceType: number,
  userId: number | null,
  lat: number | null,
  lon: number | null,
  speed: number | null,
  course: number | null,
  utcTime: number | null,
  stateTime: number | null,
];

/** The page as it comes over the wire. */
export interface DeviceRowsPage {
  pageNum: number;
  pageSize: number;
  hasMore: boolean;
  /** Rows of the whole list; null when the page is past its end. */
  total: number | null;
  counts: TabCounts | null;
  /** Epoch ms: when the server ordered the list. */
  now: number;
  fields: string[];
  rows: DeviceRowTuple[];
}

/** A decoded row: the device list item's fields a long list shows (times in epoch ms). */
export interface DeviceListRow {
  id: string;
  terminalID: string;
  displayName: string;
  nickname: string;
  carNumber: string;
  state: 'zx' | 'lx' | 'wjh';
  carIconState: CarIconState;
  markerIcon: MapStateCode;
  /** Effective expiry, epoch ms; null: never. */
  expire: number | null;
  iconType: number;
  deviceType: number;
  user_id: string | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  /** Fix time. */
  utcTime: number | null;
  /** Last report. */
  stateTime: number | null;
}

const STATES = [DEVICE_STATE.online, DEVICE_STATE.offline, DEVICE_STATE.notActivated] as const;

/** Refuses a page whose fields are not the ones this decoder knows (a server of another version). */
export function checkFields(fields: readonly string[]): void {
  if (fields.length !== DEVICE_ROW_FIELDS.length || fields.some((f, i) => f !== DEVICE_ROW_FIELDS[i])) {
    throw new Error(`unknown device row fields: ${fields.join(',')}`);
  }
}

export function decodeDeviceRow(t: DeviceRowTuple, now: number): DeviceListRow {
  const [id, terminalID, nickname, carNumber, stateCode, expire, iconType, deviceType, userId] = t;
  const [utcTime, stateTime] = [t[13], t[14]];
  // Without a fix time or a report time there is no location (as in the full items), whatever else was stored.
  const hasState = utcTime !== null || stateTime !== null;
  const [lat, lon, speed, course] = hasState ? [t[9], t[10], t[11], t[12]] : [null, null, null, null];
  const state = STATES[stateCode];
  const icon = carIconState(
    {
      state,
      expire,
      location: hasState
        ? {
            lat: lat ?? Number.NaN,
            lon: lon ?? Number.NaN,
            speed: speed ?? 0,
            utcTime: utcTime ?? Number.NaN,
            stateTime,
          }
        : null,
    },
    now,
  );
  return {
    id: String(id),
    terminalID,
    displayName: displayName({ terminalID, carNumber, nickname }),
    nickname,
    carNumber,
    state,
    carIconState: icon,
    markerIcon: mapStateCode(icon),
    expire,
    iconType,
    deviceType,
    user_id: userId === null ? null : String(userId),
    lat,
    lon,
    speed,
    course,
    utcTime,
    stateTime,
  };
}

/** Every row of the page, in the list order. */
export function decodeDeviceRows(page: Pick<DeviceRowsPage, 'fields' | 'rows' | 'now'>): DeviceListRow[] {
  checkFields(page.fields);
  const out = new Array<DeviceListRow>(page.rows.length);
  for (let i = 0; i < page.rows.length; i++) out[i] = decodeDeviceRow(page.rows[i], page.now);
  return out;
}
