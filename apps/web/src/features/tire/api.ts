// Typed calls of /api/tire/find and /api/battery (gateway README).
import { api } from '../../api/client.ts';

export interface Wheel {
  index: number;
  /** leftFront, rightFront, leftRear, rightRear */
  position: string | null;
  /** kPa */
  pressure: number | null;
  /** °C */
  temperature: number | null;
  /** most urgent first: airLeak, highTemperature, highPressure, lowPressure, lowPower, or normal */
  statuses: string[];
}

export interface TyreReport {
  terminalID: string;
  time: string | null;
  wheels: Wheel[];
}

export interface BatteryPack {
  voltage: number | null;
  current: number | null;
  percentage: number | null;
  temperature: number | null;
  useCount: number | null;
  state: string;
}

export interface BatteryReport {
  terminalID: string;
  time: string | null;
  battery: number | null;
  pack: BatteryPack | null;
}

export function findTyres(terminalID: string, signal?: AbortSignal) {
  return api<TyreReport>('/tire/find', { terminalID }, { signal });
}

export function findBattery(terminalID: string, signal?: AbortSignal) {
  return api<BatteryReport>('/battery', { terminalID }, { signal });
}
