// The command menu of a device: catalogue commands grouped by purpose, filtered by what its protocol and
// model understand (808 terminals take AT+ texts, BSJ/GW the <YG*…> form, tyre models the TPMS commands).
import { COMMANDS, type CommandEntry } from '@carhere/domain';

export const COMMAND_GROUPS = {
  query: ['status', 'where', 'version', 'queryCodes'],
  oil: ['relayCut', 'relayRestore', 'timerCut', 'backupRelayCut', 'backupRelayRestore'],
  alarm: [
    'sosSet',
    'sosDelete',
    'centerSet',
    'centerDelete',
    'vibrationOn',
    'vibrationOff',
    'vibrationLevel',
    'overspeedOn',
    'overspeedOff',
    'lowBatteryOn',
    'lowBatteryOff',
    'powerCutOn',
    'powerCutOff',
    'movingOn',
    'movingOff',
    'removalOn',
    'removalOff',
    'removalClear',
    'chargeAlert',
  ],
  fence: ['fenceIn', 'fenceOut', 'fenceInOut', 'fenceOff'],
  mode: [
    'normalMode',
    'workMode',
    'workModeAlwaysOn',
    'sleepOn',
    'sleepOff',
    'arm',
    'disarm',
    'defenseTime',
    'defenseDistance',
    'uploadInterval',
    'timeZone',
  ],
  device: ['restart', 'factoryReset', 'mileage', 'server', 'bind', 'unbind', 'recordAudio'],
  jt808: ['authNumbers808', 'speedLimit808'],
  gw: ['timedReport'],
  tyre: ['tyreQuery', 'tyreLearn', 'tyreChange', 'tyreDefaults', 'tyreAlarmCancel'],
} as const satisfies Record<string, readonly string[]>;

export type CommandGroup = keyof typeof COMMAND_GROUPS;

/** Device model codes (spec §3) with their own menus. */
const MODEL_TIRE = 4;
const MODEL_GW005808 = 14;
const NB_MODELS = [9, 11];
/** Protocol types: 1 808, 3 808 long standby, 4 BSJ 11-digit. */
const JT808_PROTOCOLS = [1, 3];
const BSJ_PROTOCOL = 4;

export function groupsFor(device: { deviceProtocol: number; protocolType?: number }): CommandGroup[] {
  const model = device.deviceProtocol;
  const protocol = device.protocolType ?? 0;
  if (NB_MODELS.includes(model)) return ['query', 'alarm', 'mode'];
  if (protocol === BSJ_PROTOCOL || model === MODEL_GW005808) return ['query', 'oil', 'gw', 'device'];
  const groups: CommandGroup[] = JT808_PROTOCOLS.includes(protocol)
    ? ['query', 'oil', 'jt808', 'fence', 'device']
    : ['query', 'oil', 'alarm', 'fence', 'mode', 'device'];
  if (model === MODEL_TIRE) groups.push('tyre');
  return groups;
}

const BY_ID = new Map(COMMANDS.map((c) => [c.id, c]));

/** The device's menu: its groups with their catalogue entries. */
export function commandMenu(device: {
  deviceProtocol: number;
  protocolType?: number;
}): { group: CommandGroup; commands: CommandEntry[] }[] {
  return groupsFor(device).map((group) => ({
    group,
    commands: COMMAND_GROUPS[group].map((id) => BY_ID.get(id)).filter((c): c is CommandEntry => c !== undefined),
  }));
}
