// Quality control (spec §7 "serials", "test results"): pass criteria per model and the pure pass/fail rule a
// production test result is judged by. The server calls `judgeQc` when a result arrives; the web shows the
// same failure reasons.

export interface QcCriteria {
  /** Device model, e.g. 'GT06N'. */
  model: string;
  /** Minimum satellites seen. */
  minSatellites: number | null;
  /** Minimum best carrier-to-noise ratio (dB-Hz). */
  minCn0: number | null;
  /** Minimum GSM signal (CSQ 0–31). */
  minGsm: number | null;
  /** Expected firmware version (exact match); null: any. */
  firmware: string | null;
}

export interface QcMeasurement {
  satellites: number | null;
  cn0: number | null;
  gsm: number | null;
  firmware: string | null;
  /** The station's own verdict, if it sent one. */
  stationPass: boolean | null;
}

export type QcFailure = 'satellites' | 'cn0' | 'gsm' | 'firmware' | 'station';

export interface QcVerdict {
  pass: boolean;
  failures: QcFailure[];
}

function below(value: number | null, min: number | null): boolean {
  if (min === null) return false;
  return value === null || value < min;
}

/**
 * Pass/fail of a result: a station that says "fail" fails it; with criteria for the model, every measure must
 * reach its minimum (a missing measure fails) and the firmware must match. Without criteria the station's
 * verdict decides (none: pass).
 */
export function judgeQc(m: QcMeasurement, criteria: QcCriteria | null): QcVerdict {
  const failures: QcFailure[] = [];
  if (criteria) {
    if (below(m.satellites, criteria.minSatellites)) failures.push('satellites');
    if (below(m.cn0, criteria.minCn0)) failures.push('cn0');
    if (below(m.gsm, criteria.minGsm)) failures.push('gsm');
    if (criteria.firmware && (m.firmware ?? '').trim() !== criteria.firmware.trim()) failures.push('firmware');
  }
  if (m.stationPass === false) failures.push('station');
  return { pass: failures.length === 0, failures };
}
