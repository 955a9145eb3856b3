// GPS tests recorded by the gateway (factory QC, issue 14): a device in FACTORY TEST MODE that connects is
// tested on its real connection, and the result goes into qc_results (kind 'gps', station 'gateway') beside the
// stations' v1/v2 uploads, so QC search, stock import ("no factory test record", "QC failed") and GW005 see it.
//
// Factory test mode: the device is in stock — its row has no owner (the one meaning of stock, packages/domain
// factory/stock.ts) — and its model has pass criteria in configList (qc_criteria). A customer's device is
// never tested; a model without criteria is not under test.
//
// What one connection measures: satellites seen (the most any fix reported, until the first valid fix), the
// best C/N0 when the device reports one (attribute `cn0`, dB-Hz; the standard GT06 / JT/T 808 reports carry
// none), and the time to first fix: from the login to the first valid fix the gateway receives. The result is
// recorded once per connection, at the first valid fix, judged by the domain's judgeQc against the GPS part of
// the model's criteria: minimum satellites, and minimum C/N0 when a C/N0 was reported (GSM signal and firmware
// are the test station's checks, judged on its v1/v2 uploads).
import { deviceModel, judgeQc, type QcCriteria } from '@carhere/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeviceRef } from './directory.ts';

export const GATEWAY_STATION = 'gateway';

/** One connection's GPS test while it runs. */
export class GpsTestRun {
  satellites: number | null = null;
  cn0: number | null = null;
  done = false;
  constructor(readonly connectedAt: number) {}

  /** Takes one message's fixes; answers the time to first fix (s) at the first valid one, else null. */
  observe(
    fixes: readonly { valid: boolean; satellites?: number | null; attributes?: Record<string, unknown> }[],
    now: number,
  ): number | null {
    if (this.done) return null;
    let fixed = false;
    for (const f of fixes) {
      if (typeof f.satellites === 'number' && Number.isFinite(f.satellites))
        this.satellites = Math.max(this.satellites ?? 0, f.satellites);
      const cn0 = f.attributes?.cn0;
      if (typeof cn0 === 'number' && Number.isFinite(cn0)) this.cn0 = Math.max(this.cn0 ?? cn0, cn0);
      if (f.valid) fixed = true;
    }
    if (!fixed) return null;
    this.done = true;
    return Math.max(0, (now - this.connectedAt) / 1000);
  }
}

export class FactoryGpsTest {
  private readonly pending = new Set<Promise<void>>();
  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** A run for a device that may be in factory test mode (no owner, a known model); null for the others. */
  begin(device: DeviceRef, now: number): GpsTestRun | null {
    if (device.path !== '' || !deviceModel(device.deviceType)) return null;
    return new GpsTestRun(now);
  }

  /** Records the result of a run at its first fix (when the model has criteria); never throws. */
  finish(device: DeviceRef, run: GpsTestRun, ttff: number): void {
    const p = this.record(device, run, ttff).catch(this.onError);
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Waits for the results being written (gateway stop). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async record(device: DeviceRef, run: GpsTestRun, ttff: number): Promise<void> {
    const model = deviceModel(device.deviceType)?.name ?? '';
    const row = await this.db
      .selectFrom('qc_criteria')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['model']), '=', model.toLowerCase()))
      .executeTakeFirst();
    if (!row) return;
    // Still in stock now (the directory's copy may lag a removal by moments)?
    const owner = await this.db.selectFrom('devices').select('user_id').where('id', '=', device.id).executeTakeFirst();
    if (!owner || owner.user_id !== null) return;
    const criteria: QcCriteria = {
      model: row.model,
      minSatellites: row.min_satellites,
      minCn0: run.cn0 === null ? null : row.min_cn0,
      minGsm: null,
      firmware: null,
    };
    const verdict = judgeQc(
      { satellites: run.satellites, cn0: run.cn0, gsm: null, firmware: null, stationPass: null },
      criteria,
    );
    const stock = await this.db
      .selectFrom('stock_records')
      .select('batch')
      .where('imei', '=', device.terminalId)
      .executeTakeFirst();
    await this.db
      .insertInto('qc_results')
      .values({
        kind: 'gps',
        imei: device.terminalId,
        model: row.model,
        batch: stock?.batch ?? '',
        station: GATEWAY_STATION,
        satellites: run.satellites,
        cn0: run.cn0,
        ttff: Math.round(ttff * 10) / 10,
        pass: verdict.pass,
        failures: JSON.stringify(verdict.failures),
      })
      .execute();
  }
}
