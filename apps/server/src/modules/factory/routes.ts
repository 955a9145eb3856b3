// /api/factory/search (GW005 test: one page per IMEI for a line worker) and /api/idManager/* (the NB-IoT device
// id ↔ IMEI registry that NB-IoT callbacks and commands look devices up by: devices.nb_device_id). Factory
// staff work on the whole fleet; each route needs its factory permission.
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { type DeviceChangedNotice, Subjects } from '../../gateway/events.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { trackJobsOnClose } from '../agent/jobs.ts';
import { terminalIdSchema } from '../location/params.ts';
import { importRoute, jobRoutes } from '../stock/jobRoutes.ts';
import { importNbIds, NB_ID_IMPORT_MAX_ROWS, NB_ID_PATTERN } from './nbIds.ts';

const GW005 = ['factory:gw005_test'];
const ID_MANAGER = ['factory:id_manager'];
const nbIdSchema = z.string().trim().min(1).max(64).regex(NB_ID_PATTERN);
const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

const searchSchema = z.object({
  terminalID: z.string(),
  registered: z.boolean(),
  deviceType: z.number().int().nullable(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  lastLogin: z.object({ time: z.string(), remote: z.string(), protocol: z.string() }).nullable(),
  firmware: z.string().nullable(),
  position: z
    .object({
      time: z.string().nullable(),
      lat: z.number(),
      lon: z.number(),
      valid: z.boolean().nullable(),
      satellites: z.number().nullable(),
    })
    .nullable(),
  signal: z.number().nullable(),
  battery: z.number().nullable(),
  iccid: z.string().nullable(),
  /** The last quality-control result of the IMEI (modules/qc); null: no QC record. */
  qc: z
    .object({
      pass: z.boolean(),
      testedAt: z.string(),
      model: z.string(),
      firmware: z.string().nullable(),
      station: z.string(),
      failures: z.array(z.string()),
    })
    .nullable(),
  /** The SIM card of the ICCID the device has (modules/cards); null: no card record. */
  card: z
    .object({
      iccid: z.string(),
      msisdn: z.string(),
      operator: z.string(),
      state: z.string(),
      expiresOn: z.string().nullable(),
    })
    .nullable(),
});

const idRowSchema = z.object({
  terminalID: z.string(),
  nbDeviceId: z.string().nullable(),
  deviceType: z.number().int(),
});

/** The first value found among attribute names the decoders use. */
function attr(attributes: Record<string, unknown>, names: string[]): unknown {
  for (const n of names) if (attributes[n] !== undefined && attributes[n] !== null) return attributes[n];
  return null;
}

/** The GW005 line check of one IMEI: registration, connection, last login, firmware, position, QC and SIM card. */
async function gw005Check(ctx: AppContext, terminalID: string): Promise<z.infer<typeof searchSchema>> {
  const res = await sql<{
    id: string;
    device_type: number;
    iccid: string | null;
    online: boolean | null;
    last_seen: Date | null;
    pos_time: Date | null;
    lat: number | null;
    lon: number | null;
    valid: boolean | null;
    satellites: number | null;
    battery: number | null;
    attributes: Record<string, unknown> | null;
  }>`
    SELECT d.id, d.device_type, d.iccid, s.online, s.last_seen, s.pos_time, s.lat, s.lon, s.valid, s.satellites,
           s.battery, s.attributes
      FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
     WHERE d.terminal_id = ${terminalID}`.execute(ctx.db);
  const d = res.rows[0];
  const login = await ctx.db
    .selectFrom('device_log')
    .select(['time', 'remote', 'protocol'])
    .where('terminal_id', '=', terminalID)
    .where('event', '=', 'login')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const attributes = d?.attributes ?? {};
  const iccid = d?.iccid ?? (attr(attributes, ['iccid']) as string | null);
  // The last quality-control result of this IMEI and the SIM card of its ICCID (modules/qc, modules/cards).
  const qcRow = await ctx.db
    .selectFrom('qc_results')
    .select(['pass', 'tested_at', 'model', 'firmware', 'station', 'failures'])
    .where('imei', '=', terminalID)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const cardRow = iccid
    ? await ctx.db
        .selectFrom('sim_cards')
        .select(['iccid', 'msisdn', 'operator', 'state', sql<string | null>`expires_on::text`.as('expires_on')])
        .where('iccid', '=', iccid)
        .executeTakeFirst()
    : undefined;
  const qc = qcRow
    ? {
        pass: qcRow.pass,
        testedAt: iso(qcRow.tested_at) as string,
        model: qcRow.model,
        firmware: qcRow.firmware,
        station: qcRow.station,
        failures: Array.isArray(qcRow.failures) ? qcRow.failures.map(String) : [],
      }
    : null;
  const card = cardRow
    ? {
        iccid: cardRow.iccid,
        msisdn: cardRow.msisdn,
        operator: cardRow.operator,
        state: cardRow.state,
        expiresOn: cardRow.expires_on,
      }
    : null;
  const signal = attr(attributes, ['gsmSignal', 'rssi', 'signal', 'gsm']);
  const firmware = attr(attributes, ['firmware', 'version', 'softwareVersion', 'firmwareVersion']);
  return {
    terminalID,
    registered: d !== undefined,
    deviceType: d?.device_type ?? null,
    online: d?.online === true,
    lastSeen: iso(d?.last_seen),
    lastLogin: login ? { time: iso(login.time) as string, remote: login.remote, protocol: login.protocol } : null,
    firmware: firmware === null ? null : String(firmware),
    position:
      d && d.lat !== null && d.lon !== null
        ? { time: iso(d.pos_time), lat: d.lat, lon: d.lon, valid: d.valid, satellites: d.satellites }
        : null,
    signal: typeof signal === 'number' ? signal : signal === null ? null : Number(signal),
    battery: d?.battery ?? null,
    iccid: iccid ?? null,
    qc,
    card,
  };
}

/**
 * The batch line check's verdict for one IMEI: registered, connected now, with a valid fix, and not failed at QC
 * (no QC record counts as not failed: the line may test before QC).
 */
function linePassed(c: z.infer<typeof searchSchema>): boolean {
  return c.registered && c.online && c.position?.valid === true && c.qc?.pass !== false;
}

/** IMEIs one batch test checks at most. */
const BATCH_TEST_MAX = 200;

export async function factoryRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/factory/search',
    {
      config: { permission: GW005 },
      schema: {
        tags: ['factory'],
        summary:
          'GW005 test: everything a line worker checks for one IMEI — registered, connected now, last login, firmware, last position and signal, battery, QC result, SIM card',
        body: z.object({ terminalID: terminalIdSchema }),
        response: { 200: envelopeOf(searchSchema) },
      },
    },
    async (req) => ok(await gw005Check(ctx, req.body.terminalID)),
  );

  app.post(
    '/device/batchTest',
    {
      config: { permission: GW005 },
      schema: {
        tags: ['factory'],
        summary: `Batch test (spec §7 /device/batchTest): the GW005 line check for up to ${BATCH_TEST_MAX} IMEIs, each with its verdict (passed: registered, connected now, a valid fix, not failed at QC), in the order given`,
        body: z.object({ terminalIDs: z.array(terminalIdSchema).min(1).max(BATCH_TEST_MAX) }),
        response: {
          200: envelopeOf(
            z.object({
              passed: z.number().int(),
              failed: z.number().int(),
              list: z.array(searchSchema.extend({ passed: z.boolean() })),
            }),
          ),
        },
      },
    },
    async (req) => {
      const list = [];
      for (const terminalID of [...new Set(req.body.terminalIDs)]) {
        const check = await gw005Check(ctx, terminalID);
        list.push({ ...check, passed: linePassed(check) });
      }
      const passed = list.filter((c) => c.passed).length;
      return ok({ passed, failed: list.length - passed, list });
    },
  );

  app.post(
    '/idManager/find',
    {
      config: { permission: ID_MANAGER },
      schema: {
        tags: ['factory'],
        summary: 'NB-IoT id registry: devices by IMEI or NB-IoT device id (prefix); onlyWithId: only those with an id',
        body: z.object({
          keyword: z.string().trim().max(64).optional(),
          onlyWithId: z.boolean().optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(idRowSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      let q = ctx.db.selectFrom('devices');
      if (b.keyword) {
        const like = `${b.keyword.replace(/[\\%_]/g, '\\$&')}%`;
        q = q.where((eb) => eb.or([eb('terminal_id', 'like', like), eb('nb_device_id', 'like', like)]));
      }
      if (b.onlyWithId) q = q.where('nb_device_id', 'is not', null);
      const total = Number((await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['terminal_id', 'nb_device_id', 'device_type'])
        .orderBy('terminal_id')
        .limit(b.pageSize)
        .offset((b.pageNum - 1) * b.pageSize)
        .execute();
      return ok({
        total,
        list: rows.map((r) => ({ terminalID: r.terminal_id, nbDeviceId: r.nb_device_id, deviceType: r.device_type })),
      });
    },
  );

  /** Sets (or clears) one IMEI's NB-IoT id; returns a refusal reason, or null when done. */
  async function setId(terminalID: string, nbDeviceId: string | null, lang: string): Promise<string | null> {
    const device = await ctx.db
      .selectFrom('devices')
      .select('id')
      .where('terminal_id', '=', terminalID)
      .executeTakeFirst();
    if (!device) return translate('factory.imeiUnknown', lang);
    if (nbDeviceId !== null) {
      const other = await ctx.db
        .selectFrom('devices')
        .select('terminal_id')
        .where('nb_device_id', '=', nbDeviceId)
        .where('id', '<>', device.id)
        .executeTakeFirst();
      if (other) return translate('factory.nbIdTaken', lang);
    }
    await ctx.db.updateTable('devices').set({ nb_device_id: nbDeviceId }).where('id', '=', device.id).execute();
    ctx.bus.publish(Subjects.deviceChanged, { deviceId: String(device.id), terminalID } satisfies DeviceChangedNotice);
    return null;
  }

  app.post(
    '/idManager/set',
    {
      config: { permission: ID_MANAGER },
      schema: {
        tags: ['factory'],
        summary: 'Set (or, with null, clear) the NB-IoT device id of an IMEI; an id belongs to one device only',
        body: z.object({ terminalID: terminalIdSchema, nbDeviceId: nbIdSchema.nullable() }),
        response: { 200: envelopeOf(idRowSchema) },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const refused = await setId(req.body.terminalID, req.body.nbDeviceId, lang);
      if (refused === translate('factory.imeiUnknown', lang)) throw notFound('factory.imeiUnknown');
      if (refused) throw badRequest('factory.nbIdTaken');
      const row = await ctx.db
        .selectFrom('devices')
        .select(['terminal_id', 'nb_device_id', 'device_type'])
        .where('terminal_id', '=', req.body.terminalID)
        .executeTakeFirstOrThrow();
      return ok({ terminalID: row.terminal_id, nbDeviceId: row.nb_device_id, deviceType: row.device_type });
    },
  );

  trackJobsOnClose(app, ctx);
  importRoute(app, ctx, {
    url: '/idManager/import',
    kind: 'nbIds',
    permission: ID_MANAGER,
    tag: 'factory',
    summary:
      'Import IMEI ↔ NB-IoT id pairs: rows "IMEI, id" from text (comma, tab, semicolon or space between), csv or xlsx, ' +
      'as a job with progress; unknown IMEIs, ids held by another device and repeated lines are refused with their reason. ' +
      'Poll GET /idManager/importJob?kind=nbIds; the refused lines as CSV from /idManager/importRejected',
    maxRows: NB_ID_IMPORT_MAX_ROWS,
    fields: {},
    work: (rows, _body, lang, progress) => importNbIds(ctx, rows, lang, progress),
  });
  jobRoutes(app, ctx, '/idManager', ['nbIds'], ID_MANAGER, 'factory');
}
