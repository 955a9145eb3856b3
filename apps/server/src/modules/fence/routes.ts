// /api/fence/*: geofences (circle or rectangle, stored in WGS-84), their alarm type and state, and the
// devices linked to them. Every call checks main:fence and that the fence (its owner) and each device lie
// inside the caller's hierarchy; a fence is linked only to devices its owner reaches.
import { canDeleteFence } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { FenceDetector } from './detector.ts';
import { geometryColumns, geometryOfRow, parseGeometry } from './geometry.ts';
import {
  caller,
  fenceQuery,
  likePattern,
  linkDevices,
  linkedDevicesPage,
  loadOwner,
  loadReachableFence,
  ownerInSubtree,
  presentFence,
  presentFences,
  resolveDevices,
} from './queries.ts';
import {
  addFenceBody,
  fenceDevicePage,
  fencePage,
  fenceSchema,
  findByDeviceBody,
  findDevicesBody,
  findFencesBody,
  idBody,
  linkBody,
  setStateBody,
  updateFenceBody,
} from './schema.ts';

declare module '../../context.ts' {
  interface AppServices {
    fenceDetector: FenceDetector;
  }
}

const FENCE = { permission: ['main:fence'] };
const tags = ['fence'];

export async function fenceRoutes(app: App, ctx: AppContext): Promise<void> {
  const detector = new FenceDetector(ctx, (err, what) => app.log.error({ err }, what));
  await detector.start();
  ctx.services.fenceDetector = detector;
  app.addHook('onClose', async () => detector.stop());

  app.post(
    '/fence/find',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Fences the caller reaches (optionally of one owner, by name or state), newest first',
        body: findFencesBody,
        response: { 200: envelopeOf(fencePage) },
      },
    },
    async (req) => {
      const { name, userId, state, pageNum, pageSize } = req.body;
      let q = fenceQuery(ctx).where(ownerInSubtree(caller(req)));
      if (userId) {
        const owner = await loadOwner(ctx, req, userId);
        q = q.where('f.user_id', '=', owner.id);
      }
      if (name) q = q.where('f.name', 'ilike', likePattern(name));
      if (state) q = q.where('f.state', '=', state);
      const total = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await q
        .orderBy('f.id', 'desc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({ total: Number(total.n), list: await presentFences(ctx, rows) });
    },
  );

  app.post(
    '/fence/findById',
    {
      config: FENCE,
      schema: { tags, summary: 'One fence', body: idBody, response: { 200: envelopeOf(fenceSchema) } },
    },
    async (req) => ok((await presentFences(ctx, [await loadReachableFence(ctx, req, req.body.id)]))[0]),
  );

  app.post(
    '/fence/add',
    {
      config: FENCE,
      schema: {
        tags,
        summary:
          'Create a circle (lat, lon, radius 100–1000000 m), rectangle (minLat…maxLon) or polygon (points) fence, WGS-84',
        body: addFenceBody,
        response: { 200: envelopeOf(fenceSchema) },
      },
    },
    async (req) => {
      const body = req.body;
      const geometry = parseGeometry(req, body);
      const owner = await loadOwner(ctx, req, body.userId);
      const devices = await resolveDevices(ctx, req, owner, body.terminalIDs ?? []);
      const id = await ctx.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('fences')
          .values({
            user_id: owner.id,
            name: body.name,
            ...geometryColumns(geometry),
            alarm_type: body.alarmType,
            state: body.state,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (devices.length > 0) {
          await trx
            .insertInto('fence_devices')
            .values(devices.map((d) => ({ fence_id: row.id, device_id: d.id, inside: null, changed_at: null })))
            .execute();
        }
        return row.id;
      });
      await detector.changed();
      const fence = await fenceQuery(ctx).where('f.id', '=', id).executeTakeFirstOrThrow();
      return ok(presentFence(fence, devices.length));
    },
  );

  app.post(
    '/fence/update',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Change a fence’s name, shape, position, alarm type or state (a new position re-learns each side)',
        body: updateFenceBody,
        response: { 200: envelopeOf(fenceSchema) },
      },
    },
    async (req) => {
      const { id, name, alarmType, state, ...geo } = req.body;
      const fence = await loadReachableFence(ctx, req, id);
      const geometryTouched = Object.values(geo).some((v) => v !== undefined);
      const current = geometryOfRow(fence);
      const merged = {
        ...(current.shape === 'circle'
          ? { lat: current.lat, lon: current.lon, radius: current.radius }
          : current.shape === 'polygon'
            ? { points: current.points }
            : { minLat: current.minLat, minLon: current.minLon, maxLat: current.maxLat, maxLon: current.maxLon }),
        ...Object.fromEntries(Object.entries(geo).filter(([, v]) => v !== undefined)),
        shape: geo.shape ?? fence.shape,
      };
      const geometry = geometryTouched ? parseGeometry(req, merged) : null;
      const reopened = state === 'opened' && fence.state === 'closed';
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('fences')
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(alarmType !== undefined ? { alarm_type: alarmType } : {}),
            ...(state !== undefined ? { state } : {}),
            ...(geometry ? geometryColumns(geometry) : {}),
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .execute();
        // A moved fence or one that was not watched while closed learns each device's side again.
        if (geometry || reopened) {
          await trx
            .updateTable('fence_devices')
            .set({ inside: null, changed_at: null })
            .where('fence_id', '=', id)
            .execute();
        }
      });
      await detector.changed();
      return ok((await presentFences(ctx, [await loadReachableFence(ctx, req, id)]))[0]);
    },
  );

  app.post(
    '/fence/setState',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Open (watch) or close (stop watching) a fence',
        body: setStateBody,
        response: { 200: envelopeOf(fenceSchema) },
      },
    },
    async (req) => {
      const { id, state } = req.body;
      const fence = await loadReachableFence(ctx, req, id);
      if (fence.state !== state) {
        await ctx.db.transaction().execute(async (trx) => {
          await trx.updateTable('fences').set({ state, updated_at: new Date() }).where('id', '=', id).execute();
          if (state === 'opened') {
            await trx
              .updateTable('fence_devices')
              .set({ inside: null, changed_at: null })
              .where('fence_id', '=', id)
              .execute();
          }
        });
        await detector.changed();
      }
      return ok((await presentFences(ctx, [await loadReachableFence(ctx, req, id)]))[0]);
    },
  );

  app.post(
    '/fence/delete',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Delete a fence; refused while devices are still linked to it',
        body: idBody,
        response: { 200: envelopeOf(z.object({ deleted: z.number().int() })) },
      },
    },
    async (req) => {
      const fence = await loadReachableFence(ctx, req, req.body.id);
      const linked = await ctx.db
        .selectFrom('fence_devices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('fence_id', '=', fence.id)
        .executeTakeFirstOrThrow();
      const rule = canDeleteFence(Number(linked.n));
      if (!rule.ok) throw new ApiError(409, rule.message, 409, { ...rule.params });
      const res = await ctx.db.deleteFrom('fences').where('id', '=', fence.id).executeTakeFirst();
      await detector.changed();
      return ok({ deleted: Number(res.numDeletedRows) });
    },
  );

  app.post(
    '/fence/assign',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Link devices (terminalIDs or deviceIds, ≤ 500) to a fence; already linked ones are kept',
        body: linkBody,
        response: { 200: envelopeOf(z.object({ assigned: z.number().int(), total: z.number().int() })) },
      },
    },
    async (req) => {
      const fence = await loadReachableFence(ctx, req, req.body.id);
      const owner = { role: fence.owner_role, path: fence.owner_path };
      const devices = await resolveDevices(ctx, req, owner, req.body.terminalIDs, req.body.deviceIds);
      const assigned = await linkDevices(ctx, fence.id, devices);
      await detector.changed();
      return ok({ assigned, total: devices.length });
    },
  );

  app.post(
    '/fence/unassign',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Remove devices (terminalIDs or deviceIds, ≤ 500) from a fence',
        body: linkBody,
        response: { 200: envelopeOf(z.object({ removed: z.number().int() })) },
      },
    },
    async (req) => {
      const fence = await loadReachableFence(ctx, req, req.body.id);
      // Any device linked to the caller's fence may be removed from it, even one since moved out of reach
      // (otherwise such a fence could never be emptied and deleted).
      const imeis = req.body.terminalIDs ?? [];
      const ids = req.body.deviceIds ?? [];
      const res = await ctx.db
        .deleteFrom('fence_devices')
        .where('fence_id', '=', fence.id)
        .where('device_id', 'in', (eb) =>
          eb
            .selectFrom('devices')
            .select('id')
            .where((w) =>
              w.or([
                ...(imeis.length > 0 ? [w('terminal_id', 'in', imeis)] : []),
                ...(ids.length > 0 ? [w('id', 'in', ids)] : []),
              ]),
            ),
        )
        .executeTakeFirst();
      await detector.changed();
      return ok({ removed: Number(res.numDeletedRows) });
    },
  );

  app.post(
    '/fence/findDevices',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Devices linked to a fence, with the side each was last seen on',
        body: findDevicesBody,
        response: { 200: envelopeOf(fenceDevicePage) },
      },
    },
    async (req) => {
      const fence = await loadReachableFence(ctx, req, req.body.id);
      return ok(await linkedDevicesPage(ctx, fence.id, req.body.pageNum, req.body.pageSize));
    },
  );

  app.post(
    '/fence/findByDevice',
    {
      config: FENCE,
      schema: {
        tags,
        summary: 'Fences linked to one device (the monitoring popup’s fence action)',
        body: findByDeviceBody,
        response: { 200: envelopeOf(z.array(fenceSchema)) },
      },
    },
    async (req) => {
      const [device] = await resolveDevices(ctx, req, caller(req), [req.body.terminalID]);
      const rows = await fenceQuery(ctx)
        .innerJoin('fence_devices as fd', 'fd.fence_id', 'f.id')
        .where('fd.device_id', '=', device.id)
        .where(ownerInSubtree(caller(req)))
        .orderBy('f.id', 'desc')
        .execute();
      return ok(await presentFences(ctx, rows));
    },
  );

  app.post(
    '/fence/findAlarmFences',
    {
      config: { permission: ['main:fence', 'main:alarms'] },
      schema: {
        tags,
        summary: 'The fence names of fence alarms (alarm ids → fence names), for the alarm list',
        body: z.object({ alarmIds: z.array(z.string().regex(/^\d{1,18}$/)).max(500) }),
        response: { 200: envelopeOf(z.record(z.string(), z.array(z.string()))) },
      },
    },
    async (req) => {
      if (req.body.alarmIds.length === 0) return ok({});
      const rows = await ctx.db
        .selectFrom('fence_alarms as fa')
        .innerJoin('fences as f', 'f.id', 'fa.fence_id')
        .innerJoin('users as u', 'u.id', 'f.user_id')
        .select(['fa.alarm_id', 'fa.fence_name'])
        .where('fa.alarm_id', 'in', req.body.alarmIds)
        .where(ownerInSubtree(caller(req)))
        .execute();
      const out: Record<string, string[]> = {};
      for (const r of rows) out[r.alarm_id] = [...(out[r.alarm_id] ?? []), r.fence_name];
      return ok(out);
    },
  );
}
