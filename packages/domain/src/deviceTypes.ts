// Device types as data (spec §3 models 0–16, 88, 89; §7 device type find / add or update / detail; §9 devices
// without battery or ACC by type lists): per model code its protocol, icon, features and command menu. The
// seed below is the catalogue the web hard-coded before (features/command/menu.ts), so nothing changes for
// anyone until an admin edits a type.
import { COMMANDS, type CommandEntry, matchCommand } from './catalogues/commandCatalogue.ts';
import { DEVICE_MODELS } from './catalogues/deviceModels.ts';
import type { Labelled } from './catalogues/source.ts';
import { accept, type RuleResult, refuse, type Validated } from './result.ts';
import { intervalHours, powerOnTime, timeModeMinutes } from './validation.ts';

/** What a device type can do; a feature it lacks is refused ('device.unsupported', spec §8). */
export const DEVICE_FEATURES = ['battery', 'acc', 'tyres', 'oilCut', 'recording'] as const;
export type DeviceFeature = (typeof DEVICE_FEATURES)[number];
export type DeviceFeatures = Readonly<Record<DeviceFeature, boolean>>;

/** One command of a type's menu: a catalogue id (or the admin's own), its content template, optional label. */
export interface DeviceTypeCommand {
  readonly id: string;
  /** Text sent to the device; placeholders in braces (see renderCommand); the form is built from them. */
  readonly template: string;
  /** The admin's own label (cn/en/…); without it the catalogue label of `id`. */
  readonly label?: Partial<Labelled>;
}

export interface DeviceTypeMenuGroup {
  /** i18n key under command:group.* (query, oil, alarm …) or the admin's own group name. */
  readonly group: string;
  readonly commands: readonly DeviceTypeCommand[];
}

export interface DeviceTypeConfig {
  /** The model code (location.deviceProtocol / devices.device_type). */
  readonly deviceType: number;
  readonly name: string;
  /** Usual protocol type of the model (0 other, 1 808, 2 GT06, 3 808 long standby, 4 BSJ). */
  readonly protocolType: number;
  /** Default icon type, 1 to 12. */
  readonly iconType: number;
  readonly features: DeviceFeatures;
  /** The menu of the type's devices. */
  readonly menu: readonly DeviceTypeMenuGroup[];
  /** Menus for devices of this type on another protocol type, keyed by protocol type code. */
  readonly protocolMenus: Readonly<Record<string, readonly DeviceTypeMenuGroup[]>>;
}

/** Work-mode commands the spec's rules cover (§5); not in the seeded menus, available to add to any type. */
export const WORK_MODE_COMMANDS: readonly CommandEntry[] = [
  {
    id: 'timeMode',
    template: 'TIMEMODE,{timeMode}#',
    source: 'carhere',
    cn: '定时模式(分钟，0关闭)',
    en: 'Timed mode (minutes, 0 = off)',
    'en-IN': 'Timed mode (minutes, 0 = off)',
    es: 'Modo temporizado (minutos, 0 = apagado)',
    fr: 'Mode minuté (minutes, 0 = désactivé)',
    km: 'របៀបកំណត់ពេល (នាទី, 0 = បិទ)',
    my: 'အချိန်သတ်မှတ်မုဒ် (မိနစ်, 0 = ပိတ်)',
    pt: 'Modo temporizado (minutos, 0 = desligado)',
    ru: 'Режим по таймеру (минуты, 0 = выкл.)',
    th: 'โหมดตั้งเวลา (นาที, 0 = ปิด)',
    vi: 'Chế độ hẹn giờ (phút, 0 = tắt)',
  },
  {
    id: 'powerOnTimer',
    template: 'POWERON,{powerOn},{interval}#',
    source: 'carhere',
    cn: '定时开机(时间与间隔小时)',
    en: 'Timed power-on (time and interval in hours)',
    'en-IN': 'Timed power-on (time and interval in hours)',
    es: 'Encendido programado (hora e intervalo en horas)',
    fr: 'Mise sous tension programmée (heure et intervalle en heures)',
    km: 'បើកតាមពេលកំណត់ (ម៉ោង និងចន្លោះគិតជាម៉ោង)',
    my: 'အချိန်သတ်မှတ် ပါဝါဖွင့်ခြင်း (အချိန်နှင့် နာရီကြားကာလ)',
    pt: 'Ligar programado (hora e intervalo em horas)',
    ru: 'Включение по расписанию (время и интервал в часах)',
    th: 'เปิดเครื่องตามเวลา (เวลาและช่วงเป็นชั่วโมง)',
    vi: 'Bật máy hẹn giờ (giờ và khoảng cách theo giờ)',
  },
  {
    id: 'mixedMode',
    template: 'MIXMODE,{mixed}#',
    source: 'carhere',
    cn: '混合模式',
    en: 'Mixed mode',
    'en-IN': 'Mixed mode',
    es: 'Modo mixto',
    fr: 'Mode mixte',
    km: 'របៀបចម្រុះ',
    my: 'ရောနှောမုဒ်',
    pt: 'Modo misto',
    ru: 'Смешанный режим',
    th: 'โหมดผสม',
    vi: 'Chế độ kết hợp',
  },
];

/** Every command an admin can put into a menu: the catalogue and the work-mode commands. */
export const MENU_COMMANDS: readonly CommandEntry[] = [...COMMANDS, ...WORK_MODE_COMMANDS];
const MENU_COMMAND_BY_ID = new Map(MENU_COMMANDS.map((c) => [c.id, c]));

export function menuCommandById(id: string): CommandEntry | undefined {
  return MENU_COMMAND_BY_ID.get(id);
}

/** Groups of the seeded menus (the groups menu.ts had). */
export const SEED_COMMAND_GROUPS = {
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
  workMode: ['timeMode', 'powerOnTimer', 'mixedMode'],
} as const satisfies Record<string, readonly string[]>;
export type SeedCommandGroup = keyof typeof SEED_COMMAND_GROUPS;

const MODEL_TIRE = 4;
const MODEL_GW005808 = 14;
const NB_MODELS: readonly number[] = [9, 11];
const JT808_PROTOCOLS: readonly number[] = [1, 3];
const BSJ_PROTOCOL = 4;
/** Protocol types whose menus may differ from the type's own (808, 808 long standby, BSJ). */
const OTHER_MENU_PROTOCOLS: readonly number[] = [1, 3, 4];

/** The seeded groups of a model on a protocol type: the rule menu.ts applied before types became data. */
function seedGroups(model: number, protocol: number): SeedCommandGroup[] {
  if (NB_MODELS.includes(model)) return ['query', 'alarm', 'mode'];
  if (protocol === BSJ_PROTOCOL || model === MODEL_GW005808) return ['query', 'oil', 'gw', 'device'];
  const groups: SeedCommandGroup[] = JT808_PROTOCOLS.includes(protocol)
    ? ['query', 'oil', 'jt808', 'fence', 'device']
    : ['query', 'oil', 'alarm', 'fence', 'mode', 'device'];
  if (model === MODEL_TIRE) groups.push('tyre');
  return groups;
}

function seedMenu(model: number, protocol: number): DeviceTypeMenuGroup[] {
  return seedGroups(model, protocol).map((group) => ({
    group,
    commands: SEED_COMMAND_GROUPS[group].flatMap((id) => {
      const entry = MENU_COMMAND_BY_ID.get(id);
      return entry ? [{ id, template: entry.template }] : [];
    }),
  }));
}

const DEFAULT_PROTOCOL_BY_MODEL: Readonly<Record<number, number>> = { 6: 4, 8: 1, 12: 2, 13: 1, 14: 1 };

/** The seeded configuration of a model code (also used for a code without a configuration of its own). */
export function seedDeviceType(code: number, name?: string): DeviceTypeConfig {
  const menu = seedMenu(code, 0);
  const protocolMenus: Record<string, DeviceTypeMenuGroup[]> = {};
  for (const protocol of OTHER_MENU_PROTOCOLS) {
    const other = seedMenu(code, protocol);
    if (JSON.stringify(other) !== JSON.stringify(menu)) protocolMenus[String(protocol)] = other;
  }
  const ids = new Set(menu.flatMap((g) => g.commands.map((c) => c.id)));
  return {
    deviceType: code,
    name: name ?? DEVICE_MODELS.find((m) => m.code === code)?.name ?? String(code),
    protocolType: DEFAULT_PROTOCOL_BY_MODEL[code] ?? 0,
    iconType: 1,
    features: {
      battery: true,
      acc: true,
      // Tyre data of any model is shown today (808 terminals report TPMS too): an admin narrows it per type.
      tyres: true,
      oilCut: ids.has('relayCut'),
      recording: ids.has('recordAudio'),
    },
    menu,
    protocolMenus,
  };
}

/** Today's catalogue: one configuration per model code of spec §3. */
export const SEED_DEVICE_TYPES: readonly DeviceTypeConfig[] = DEVICE_MODELS.map((m) => seedDeviceType(m.code, m.name));

/** The configuration of a model code among `types`, else its seed. */
export function deviceTypeOf(types: readonly DeviceTypeConfig[], code: number | null | undefined): DeviceTypeConfig {
  const c = code ?? -1;
  return types.find((t) => t.deviceType === c) ?? seedDeviceType(c);
}

/** The command menu of a device: its type's menu for its protocol type. */
export function deviceTypeMenu(
  types: readonly DeviceTypeConfig[],
  device: { deviceProtocol: number; protocolType?: number | null },
): readonly DeviceTypeMenuGroup[] {
  const type = deviceTypeOf(types, device.deviceProtocol);
  return type.protocolMenus[String(device.protocolType ?? 0)] ?? type.menu;
}

/** Whether a device of this type has a feature. */
export function hasFeature(
  types: readonly DeviceTypeConfig[],
  code: number | null | undefined,
  feature: DeviceFeature,
): boolean {
  return deviceTypeOf(types, code).features[feature];
}

/** The feature a catalogue command needs (oil cut, tyres, recording), or undefined. */
const FEATURE_OF_COMMAND: Readonly<Record<string, DeviceFeature>> = {
  relayCut: 'oilCut',
  relayRestore: 'oilCut',
  timerCut: 'oilCut',
  backupRelayCut: 'oilCut',
  backupRelayRestore: 'oilCut',
  tyreQuery: 'tyres',
  tyreLearn: 'tyres',
  tyreChange: 'tyres',
  tyreDefaults: 'tyres',
  tyreAlarmCancel: 'tyres',
  recordAudio: 'recording',
};

/** The feature a menu command (by id) needs, or undefined. */
export function commandIdFeature(id: string): DeviceFeature | undefined {
  return FEATURE_OF_COMMAND[id];
}

export function commandFeature(content: string): DeviceFeature | undefined {
  const entry = matchCommand(content);
  return entry ? FEATURE_OF_COMMAND[entry.id] : undefined;
}

/** Spec §8: a command needing a feature the device's type lacks is refused. */
export function checkCommandFeature(type: DeviceTypeConfig, content: string): RuleResult {
  const feature = commandFeature(content);
  return feature && !type.features[feature] ? refuse('device.unsupported') : { ok: true };
}

/** Oil cut / restore commands, whose replies are read with oilControlOutcome (spec §4). */
export function isOilControlCommand(content: string | null | undefined): boolean {
  if (typeof content !== 'string') return false;
  const id = matchCommand(content)?.id;
  return id === 'relayCut' || id === 'relayRestore' || id === 'backupRelayCut' || id === 'backupRelayRestore';
}

/**
 * Placeholders with a rule of spec §5, by name: time-mode minutes (0 = off), timed power-on (18:30; sent as
 * 1830), interval hours, mixed mode (1 on, 0 one mode only). One definition for the forms and the server.
 */
export const COMMAND_PARAMETER_RULES: Readonly<Record<string, (value: string) => Validated<unknown>>> = {
  timeMode: (v) => timeModeMinutes(v),
  powerOn: (v) => powerOnTime(/^\d{4}$/.test(v) ? `${v.slice(0, 2)}:${v.slice(2)}` : v),
  interval: (v) => intervalHours(v),
  mixed: (v) => (v === '0' || v === '1' ? accept(v === '1') : refuse('validation.mixedMode')),
};

const TOKEN = /\{([^}]*)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Checks the ruled placeholders of a command text against the templates it may come from (the catalogue's
 * work-mode commands and any menu template): the first template the text matches decides.
 */
export function checkCommandParameters(content: string, templates: readonly string[] = []): RuleResult {
  const text = content.trim();
  for (const template of [...WORK_MODE_COMMANDS.map((c) => c.template), ...templates]) {
    const tokens = [...template.matchAll(TOKEN)].map((m) => m[1]);
    if (!tokens.some((t) => COMMAND_PARAMETER_RULES[t])) continue;
    const source = template
      .split(TOKEN)
      .map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : '([^,#;]*)'))
      .join('');
    const match = new RegExp(`^${source}$`, 'i').exec(text);
    if (!match) continue;
    for (let i = 0; i < tokens.length; i++) {
      const rule = COMMAND_PARAMETER_RULES[tokens[i]];
      const checked = rule?.(match[i + 1] ?? '');
      if (checked && !checked.ok) return checked;
    }
    return { ok: true };
  }
  return { ok: true };
}

/**
 * Spec §5: "the mixed-mode setting lets the device run one mode only" — without mixed mode, a device is not
 * given both a timed mode (minutes > 0) and a timed power-on.
 */
export function checkWorkModeSettings(input: {
  timeModeMinutes?: number | null;
  powerOnTime?: string | null;
  mixed?: boolean | null;
}): RuleResult {
  if (input.timeModeMinutes != null) {
    const r = timeModeMinutes(input.timeModeMinutes);
    if (!r.ok) return r;
  }
  if (input.powerOnTime) {
    const r = powerOnTime(input.powerOnTime);
    if (!r.ok) return r;
  }
  if (!input.mixed && (input.timeModeMinutes ?? 0) > 0 && input.powerOnTime) return refuse('validation.mixedMode');
  return { ok: true };
}

/** Model names for the device-type lists of role wanweiTest (spec §6). */
export const WANWEI_SHORT_LIST: readonly string[] = ['GW005W'];

/**
 * Device-type list of spec §6: role wanweiTest — the one named test account gets the long list of models,
 * the others GW005W; every other role the list from the server.
 */
export function deviceTypeListFor(
  user: { role: number; username: string },
  serverList: readonly string[],
  namedTestAccount: string,
): readonly string[] {
  const WANWEI_TEST = 7;
  if (user.role !== WANWEI_TEST) return serverList;
  if (user.username === namedTestAccount) return DEVICE_MODELS.map((m) => m.name).concat(WANWEI_SHORT_LIST);
  return WANWEI_SHORT_LIST;
}
