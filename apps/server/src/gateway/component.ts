// Assembles the gateway: directory, ingest (batcher + state writer + partitions), device log, command
// dispatcher, sweeper and the two TCP listeners. `gatewayStarter` runs it beside the HTTP API;
// `demoFleetStarter` (demo.ts) drives simulated trackers against it.
import type { AppContext } from '../context.ts';
import type { ComponentStarter } from '../main.ts';
import { CommandStore } from '../modules/commands/store.ts';
import { recordDriverIdentity } from '../modules/custself/drivers.ts';
import { OtaPusher } from '../modules/ota/pusher.ts';
import { storeRecording } from '../modules/recordings/store.ts';
import { RollupRequester } from '../modules/stat/jobs.ts';
import {
  downlinkFrom,
  FIELD_NAMES,
  forgetCallbackSettings,
  readStoredSubscribe,
  SUBSCRIBE_CHANGED,
} from '../modules/subscribe/settings.ts';
import { requestLateRebuild } from '../modules/track/jobs.ts';
import { watchGateway } from '../ops/metrics.ts';
import { DeviceLog } from './device-log.ts';
import { DeviceDirectory } from './directory.ts';
import { CommandDispatcher } from './dispatcher.ts';
import { type DeviceChangedNotice, Subjects } from './events.ts';
import { FactoryGpsTest } from './factory-gps-test.ts';
import { FrameCapture } from './frame-capture.ts';
import { LoginActivity } from './grouped.ts';
import { IngestBatcher } from './ingest/batcher.ts';
import { PartitionManager } from './ingest/partitions.ts';
import { DeviceStateWriter } from './ingest/state-writer.ts';
import { Jt808AuthCodes } from './jt808-auth.ts';
import { DeviceListener } from './listener.ts';
import { ModelSettings } from './model-settings.ts';
import { NbCommands } from './nb/commands.ts';
import { type GatewayOptions, gatewayOptionsFrom } from './options.ts';
import { OsmandListener } from './osmand.ts';
import { gt06Codec, jt808Codec } from './protocol-codecs.ts';
import { PushIngest } from './push.ts';
import { SessionRegistry } from './registry.ts';

import type { Session, SessionContext } from './session.ts';
import { Sweeper } from './sweeper.ts';

/** Statistics roll-up requests after each commit that marked devices dirty (issue 13); none without a queue. */
function statisticsHook(
  ctx: AppContext,
  onError: (err: unknown) => void,
): { onMarked(): void; stop(): void } | undefined {
  const jobs = ctx.services.jobs;
  if (!jobs) return undefined;
  const requester = new RollupRequester(jobs, ctx.config.statsRollupDelaySeconds, onError);
  return { onMarked: () => requester.request(), stop: () => requester.stop() };
}

/** Track segments cleared by late fixes are built again by a queued job (issue 22); none without a queue. */
function segmentsHook(ctx: AppContext, onError: (err: unknown) => void): { onPastDays(): void } | undefined {
  const jobs = ctx.services.jobs;
  if (!jobs) return undefined;
  return { onPastDays: () => void requestLateRebuild(jobs).catch(onError) };
}

export interface Gateway {
  options: GatewayOptions;
  /** Bound ports (useful when configured as 0). */
  ports: { gt06: number; jt808: number; osmand: number };
  directory: DeviceDirectory;
  registry: SessionRegistry;
  batcher: IngestBatcher;
  state: DeviceStateWriter;
  push: PushIngest;
  sweeper: Sweeper;
  log: DeviceLog;
  /** Per-model settings (bad checksums accepted, offline alarm threshold). */
  models: ModelSettings;
  capture: FrameCapture;
  /** GPS tests of devices in factory test mode (in stock, model with QC criteria). */
  gpsTest: FactoryGpsTest;
  /** Commands to NB-IoT devices through the IoT platform, and their replies from push callbacks. */
  nb: NbCommands;
  /** Graceful stop; `timeoutMs` bounds the wait for the last writes (and ACKs) before the sockets close. */
  stop(timeoutMs?: number): Promise<void>;
}

declare module '../context.ts' {
  interface AppServices {
    gateway: Gateway;
  }
}

export interface StartGatewayOptions {
  /** Start the TCP listeners (default true); push callbacks work without them. */
  listen?: boolean;
  onError?: (err: unknown) => void;
}

export async function startGateway(
  ctx: AppContext,
  options: GatewayOptions,
  start: StartGatewayOptions = {},
): Promise<Gateway> {
  const onError =
    start.onError ?? ((err: unknown) => console.error('gateway:', err instanceof Error ? err.message : err));
  const pool = ctx.dbHandle.pool;
  const partitions = new PartitionManager(pool);
  await partitions.prepare();
  const directory = new DeviceDirectory(ctx);
  const registry = new SessionRegistry(options.idleMs);
  const state = new DeviceStateWriter(pool, ctx.bus, options.stateFlushMs, onError);
  const statistics = statisticsHook(ctx, onError);
  const batcher = new IngestBatcher(pool, ctx.bus, partitions, state, {
    maxBatchRows: options.maxBatchRows,
    writers: options.writers,
    highWaterRows: options.highWaterRows,
    onError,
    statistics,
    segments: segmentsHook(ctx, onError),
  });
  const loginActivity = new LoginActivity();
  const log = new DeviceLog(ctx.db, onError, loginActivity);
  const models = new ModelSettings(ctx.db, onError);
  await models.start();
  const capture = new FrameCapture(ctx.db, ctx.bus, onError);
  await capture.start();
  const gpsTest = new FactoryGpsTest(ctx.db, onError);
  const store = new CommandStore(ctx.db, ctx.bus);
  const nb = new NbCommands(ctx.db, store, options.nbDownlink, options.commandTimeoutMs, onError);
  const dispatcher = new CommandDispatcher(store, registry, ctx.bus, onError, nb);
  // Platform settings stored on the subscription settings screen (the environment's NB_* still win per field).
  const applyStoredNb = async (atStart: boolean) => {
    const stored = await readStoredSubscribe(ctx);
    const downlink = FIELD_NAMES.some((n) => n !== 'callbackToken' && n !== 'notifyTypes' && stored[n] !== undefined);
    if (downlink) nb.reconfigure(downlinkFrom(stored));
    else if (!atStart) nb.reconfigure(options.nbDownlink);
  };
  await applyStoredNb(true).catch(onError);
  // JT/T 808 remote upgrades (0x8108 sub-packages) on the connections of this process.
  const ota = new OtaPusher(ctx, registry, onError, options.ota);
  const sweeper = new Sweeper(
    ctx,
    state,
    store,
    Math.round(options.idleMs * 1.5) + 60_000,
    Math.max(1000, Math.min(60_000, Math.floor(options.idleMs / 4))),
    onError,
    options.offlineAlarmMinutes,
  );
  const push = new PushIngest(batcher, state);

  let boundWaiting: Session[] = [];
  const deliverToBound = () => {
    const sessions = boundWaiting;
    boundWaiting = [];
    for (const session of sessions) {
      const device = session.device;
      if (!device || registry.sessionOf(device.id) !== session) continue;
      dispatcher.onBound(session).catch(onError);
      ota.onBound(session).catch(onError);
    }
  };

  const sessionCtx: SessionContext = {
    directory,
    registry,
    batcher,
    state,
    log,
    capture,
    gpsTest,
    maxBadFrames: options.maxBadFrames,
    maxGarbageBytes: options.maxGarbageBytes,
    models,
    authCodes: new Jt808AuthCodes(ctx.db),
    codecFor: (protocol) => (protocol === 'gt06' ? gt06Codec(options) : jt808Codec()),
    onBound: (session: Session) => {
      const device = session.device;
      if (!device) return;
      ctx.bus.publish(Subjects.sessionBound, { deviceId: device.id, sessionKey: session.key });
      if (!device.activated) activate(ctx, device.id, device.terminalId).catch(onError);
      device.activated = true;
      // Its offline commands and upgrade are read once the logins of a storm are answered (or after 2 s), with
      // those of every device that logged in meanwhile.
      boundWaiting.push(session);
      if (boundWaiting.length === 1) loginActivity.whenQuiet().then(deliverToBound, onError);
    },
    loginActivity,
    onReply: (session, reply) => dispatcher.onReply(session, reply),
    onMessage: (session, msg) => ota.onMessage(session, msg),
    onDriverIdentity: (device, attributes, receivedAt) => {
      recordDriverIdentity(ctx.db, device, attributes, receivedAt).catch(onError);
    },
    onMedia: async (device, msg, receivedAt) => {
      const media = msg.media;
      if (!media) return;
      const outcome = await storeRecording(ctx, device, media, msg.positions[0] ?? null, receivedAt);
      const kind = media.type === 1 ? 'recording' : media.type === 0 ? 'image' : 'video';
      log.write({
        terminalId: device.terminalId,
        deviceId: device.id,
        protocol: 'jt808',
        event: 'recording',
        detail: outcome.stored
          ? `${kind} ${media.id} (${media.data.length} bytes) stored as ${outcome.id}${outcome.commandId ? ` for command ${outcome.commandId}` : ''}`
          : `${kind} ${media.id} (${media.data.length} bytes) refused: ${outcome.reason}`,
      });
    },
    onError,
  };

  const unsubscribes = [
    ctx.bus.subscribe(SUBSCRIBE_CHANGED, () => {
      forgetCallbackSettings(ctx);
      applyStoredNb(false).catch(onError);
    }),
    ctx.bus.subscribe(Subjects.modelSettingsChanged, () => {
      models.reload().catch(onError);
    }),
    ctx.bus.subscribe(Subjects.deviceChanged, (payload) => {
      directory.refresh((payload ?? {}) as DeviceChangedNotice).catch(onError);
    }),
    // Another gateway process bound the device: close the session here.
    ctx.bus.subscribe(Subjects.sessionBound, (payload) => {
      const notice = payload as { deviceId?: string; sessionKey?: string };
      if (!notice?.deviceId) return;
      const here = registry.sessionOf(notice.deviceId);
      if (here && here.key !== notice.sessionKey) here.close('replaced');
    }),
  ];

  directory.start();
  registry.start();
  state.start();
  dispatcher.start();
  sweeper.start();

  const listeners: DeviceListener[] = [];
  const ports = { gt06: 0, jt808: 0, osmand: 0 };
  let osmand: OsmandListener | null = null;
  if (start.listen !== false) {
    // Before the ports open: the devices about to reconnect (a restart, a failover) are already in the directory.
    await directory.preload(options.preloadDevices).catch(onError);
    const gt06 = new DeviceListener('gt06', options.gt06Port, options.host, () => gt06Codec(options), sessionCtx);
    const jt808 = new DeviceListener('jt808', options.jt808Port, options.host, () => jt808Codec(), sessionCtx);
    ports.gt06 = await gt06.start();
    ports.jt808 = await jt808.start();
    listeners.push(gt06, jt808);
    // Phones (Traccar Client, OsmAnd) over HTTP, into the same ingest as pushed NB-IoT messages.
    osmand = new OsmandListener(options.osmandPort, options.host, {
      directory,
      push,
      log,
      onDevice: (device) => {
        if (device.activated) return;
        device.activated = true;
        activate(ctx, device.id, device.terminalId).catch(onError);
      },
      onError,
    });
    ports.osmand = await osmand.start();
  }

  const unwatch = watchGateway({
    connections: () => Object.fromEntries(listeners.map((l) => [l.protocol, l.open])),
    ingestQueueDepth: () => batcher.pendingRows,
  });

  let stopped = false;
  const gateway: Gateway = {
    options,
    ports,
    directory,
    registry,
    batcher,
    state,
    push,
    sweeper,
    log,
    models,
    capture,
    gpsTest,
    nb,
    stop: async (timeoutMs = 10_000) => {
      if (stopped) return;
      stopped = true;
      for (const off of unsubscribes) off();
      unwatch();
      // Graceful: stop accepting; stop reading (what has arrived is all this process acknowledges); write what
      // is queued, which sends its ACKs (bounded: a database that is down does not hold the shutdown); then close
      // the sockets after their last bytes, so the devices reconnect to another process.
      const closing = Promise.all([...listeners.map((l) => l.stop()), osmand?.stop()]);
      registry.holdAll();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        batcher.flush(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      registry.closeAll();
      await closing;
      registry.stop();
      dispatcher.stop();
      ota.stop();
      sweeper.stop();
      directory.stop();
      models.stop();
      await batcher.close();
      statistics?.stop();
      await state.stop();
      loginActivity.release();
      await log.flush();
      await capture.stop();
      await gpsTest.flush();
    },
  };
  ctx.services.gateway = gateway;
  return gateway;
}

/** First connection of a device: it becomes activated (the accounts area computes expiry from it). */
async function activate(ctx: AppContext, deviceId: string, terminalId: string): Promise<void> {
  const res = await ctx.db
    .updateTable('devices')
    .set({ activated_at: new Date() })
    .where('id', '=', deviceId)
    .where('activated_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) ctx.bus.publish(Subjects.deviceActivated, { deviceId, terminalID: terminalId });
}

export { demoFleetStarter } from './demo.ts';

export const gatewayStarter: ComponentStarter = async (ctx) => {
  const gateway = await startGateway(ctx, gatewayOptionsFrom(ctx.config, ctx.dbHandle.kind));
  console.log(
    `  Device gateway: GT06 on port ${gateway.ports.gt06}, JT/T 808 on port ${gateway.ports.jt808}, OsmAnd (phones, HTTP) on port ${gateway.ports.osmand}`,
  );
  return { name: 'gateway', stop: () => gateway.stop() };
};
