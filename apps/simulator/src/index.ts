// @carhere/simulator: simulated GT06 and JT/T 808 trackers over real TCP (demo fleet, load tests, CLI).
export { parseSimulateArgs, runSimulator, simulateUsage } from './cli.ts';
export {
  type DeviceOptions,
  type DeviceStats,
  type SimProtocol,
  SimulatedDevice,
  toneWav,
  type UploadedMedia,
} from './device.ts';
export { BEIJING, defaultFirstTerminalId, Fleet, type FleetOptions, terminalIdAt } from './fleet.ts';
export { Gt06ServerReader, gt06Location, gt06Login } from './gt06.ts';
export { Jt808ServerReader, Jt808Terminal } from './jt808.ts';
export { sendOsmandFix } from './osmand.ts';
export { type Fix, seededRandom, VehicleTrack } from './track.ts';
