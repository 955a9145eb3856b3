import { accept, refuse, type Validated } from '../result.ts';
import commandData from './data/commands.json' with { type: 'json' };
import { translatedLabels } from './i18n/index.ts';
import { type EntrySource, type Labelled, labelIn } from './source.ts';

/**
 * A command string and its label (spec §9). `template` is the text sent to the device, with
 * placeholders in braces: `{name}` any safe value, `{1..5}` an integer range, `{ON|OFF}` a choice.
 */
export interface CommandEntry extends Labelled {
  readonly id: string;
  readonly template: string;
  readonly source: EntrySource;
}

/** Ids and English labels of the reference templates; their Chinese labels come from data/commands.json. */
const REFERENCE: Readonly<Record<string, { readonly id: string; readonly en: string }>> = {
  'RELAY,1#': { id: 'relayCut', en: 'Cut fuel and power' },
  'RELAY,0#': { id: 'relayRestore', en: 'Restore fuel and power' },
  'TIMERCUT,{a},{b},{c}#': { id: 'timerCut', en: 'Timed fuel cut' },
  'SOS,A,{n1},{n2},{n3}#': { id: 'sosSet', en: 'Set SOS numbers' },
  'SOS,D,1,2,3#': { id: 'sosDelete', en: 'Delete SOS numbers' },
  'CENTER,D#': { id: 'centerDelete', en: 'Delete centre number' },
  'FENCE,ON,0,N{lat},E{lon},{radius/100},IN,{M}#': { id: 'fenceIn', en: 'Circular fence: alarm on entering' },
  'FENCE,ON,0,N{lat},E{lon},{radius/100},OUT,{M}#': { id: 'fenceOut', en: 'Circular fence: alarm on leaving' },
  'FENCE,ON,0,N{lat},E{lon},{radius/100},,{M}#': {
    id: 'fenceInOut',
    en: 'Circular fence: alarm on entering or leaving',
  },
  'FENCE,OFF#': { id: 'fenceOff', en: 'Delete fence' },
  'SENALM,ON,{M}#': { id: 'vibrationOn', en: 'Vibration alarm on' },
  'SENALM,OFF#': { id: 'vibrationOff', en: 'Vibration alarm off' },
  'SENLEVEL,{1..5}#': { id: 'vibrationLevel', en: 'Vibration sensitivity' },
  'SPEED,ON,{time},{speed},{M}#': { id: 'overspeedOn', en: 'Overspeed alarm on' },
  'SPEED,OFF#': { id: 'overspeedOff', en: 'Overspeed alarm off' },
  'BATALM,ON,{M}#': { id: 'lowBatteryOn', en: 'Low battery alarm on' },
  'BATALM,OFF#': { id: 'lowBatteryOff', en: 'Low battery alarm off' },
  'POWERALM,ON,{M},10,30#': { id: 'powerCutOn', en: 'Power cut alarm on' },
  'POWERALM,OFF#': { id: 'powerCutOff', en: 'Power cut alarm off' },
  'MOVING,OFF#': { id: 'movingOff', en: 'Displacement alarm off' },
  'RMV,ON,{M}#': { id: 'removalOn', en: 'Removal alarm on' },
  'RMV,OFF#': { id: 'removalOff', en: 'Removal alarm off' },
  'RMV,CLR#': { id: 'removalClear', en: 'Clear removal alarm' },
  'DFS_ON#': { id: 'arm', en: 'Arm' },
  'DFS_OFF#': { id: 'disarm', en: 'Disarm' },
  'SWMODE,0,0#': { id: 'workMode', en: 'Work mode' },
  'WORKMODE,0,0,0#': { id: 'workModeAlwaysOn', en: 'Work mode: always on' },
  'RESET#': { id: 'restart', en: 'Restart' },
  'LY,{999|0|30|60|120|180|240|300}#': { id: 'recordAudio', en: 'Record audio' },
  'AT+AUTHNUMBER={n1},{n2},{n3};': { id: 'authNumbers808', en: 'Authorised numbers (808)' },
  'AT+LIMITSPEED={speed},{time};': { id: 'speedLimit808', en: 'Speed limit (808)' },
  '<YG*W:1,{weekdays},{HHMM}>': { id: 'timedReport', en: 'Timed report (GW/BSJ)' },
  'TPMS#': { id: 'tyreQuery', en: 'Query tyre pressure' },
  'TPMS_S,{1..4}#': { id: 'tyreLearn', en: 'Learn tyre sensor' },
  'TPMS_C,{1..6}#': { id: 'tyreChange', en: 'Change tyre' },
  'TPMS_F#': { id: 'tyreDefaults', en: 'Restore tyre defaults' },
  'TPMS_CONFIRM#': { id: 'tyreAlarmCancel', en: 'Cancel tyre alarm' },
};

/** Commands the spec names (§4, §9) that the reference lacks, with Carhere's templates. */
const CARHERE: readonly Omit<CommandEntry, 'source'>[] = [
  { id: 'normalMode', template: 'SWMODE,0#', cn: '正常模式', en: 'Normal mode' },
  { id: 'centerSet', template: 'CENTER,A,{number}#', cn: '设置中心号码', en: 'Set centre number' },
  { id: 'movingOn', template: 'MOVING,ON,{radius},{M}#', cn: '位移报警开', en: 'Displacement alarm on' },
  { id: 'mileage', template: 'MILEAGE,{km}#', cn: '设置初始里程', en: 'Set odometer' },
  { id: 'sleepOn', template: 'SLEEP,ON#', cn: '休眠开', en: 'Sleep on' },
  { id: 'sleepOff', template: 'SLEEP,OFF#', cn: '休眠关', en: 'Sleep off' },
  { id: 'defenseTime', template: 'DEFTIME,{minutes}#', cn: '设防延时', en: 'Arming delay' },
  { id: 'defenseDistance', template: 'DEFDIS,{metres}#', cn: '设防距离', en: 'Arming distance' },
  { id: 'chargeAlert', template: 'BCHG,{ON|OFF}#', cn: '充电提醒', en: 'Charging alert' },
  { id: 'backupRelayCut', template: 'BRELAY,1#', cn: '断开油电(备用继电器)', en: 'Cut fuel and power (backup relay)' },
  {
    id: 'backupRelayRestore',
    template: 'BRELAY,0#',
    cn: '恢复油电(备用继电器)',
    en: 'Restore fuel and power (backup relay)',
  },
  { id: 'bind', template: 'BIND#', cn: '绑定', en: 'Bind' },
  { id: 'unbind', template: 'UBIND#', cn: '解绑', en: 'Unbind' },
  { id: 'queryCodes', template: 'qCODS#', cn: '查询状态码', en: 'Query status codes' },
  { id: 'status', template: 'STATUS#', cn: '查询状态', en: 'Query status' },
  { id: 'where', template: 'WHERE#', cn: '查询位置', en: 'Query position' },
  { id: 'version', template: 'VERSION#', cn: '查询版本', en: 'Query firmware version' },
  { id: 'uploadInterval', template: 'TIMER,{seconds}#', cn: '定时上传间隔', en: 'Upload interval' },
  { id: 'server', template: 'SERVER,{mode},{host},{port},0#', cn: '设置服务器', en: 'Set server' },
  { id: 'factoryReset', template: 'FACTORY#', cn: '恢复出厂设置', en: 'Factory reset' },
  { id: 'timeZone', template: 'GMT,{E|W},{hours}#', cn: '设置时区', en: 'Set time zone' },
];

/** The Chinese label without the source's notes in parentheses: '断开油电 (cut oil/electric)' → '断开油电'. */
function referenceCn(label: string): string {
  return label.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
}

/** The labels of a command in the languages beyond cn and en (./i18n). */
function commandTranslations(id: string) {
  return translatedLabels((translation) => translation.commands[id]);
}

export const COMMANDS: readonly CommandEntry[] = [
  ...commandData.commands.map((entry) => {
    const known = REFERENCE[entry.template];
    if (!known) throw new Error(`commands.json template without an id: ${entry.template}`);
    return {
      ...known,
      template: entry.template,
      cn: referenceCn(entry.label),
      ...commandTranslations(known.id),
      source: 'reference' as const,
    };
  }),
  ...CARHERE.map((entry) => ({ ...entry, ...commandTranslations(entry.id), source: 'carhere' as const })),
];

const TOKEN = /\{([^}]*)\}/g;
/** Characters a placeholder value may hold: no separators (',' '#' ';' '<' '>'), so no extra commands. */
const SAFE_VALUE = /^[A-Za-z0-9.+-]*$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MATCHERS: readonly { readonly entry: CommandEntry; readonly pattern: RegExp }[] = COMMANDS.map((entry) => {
  const parts = entry.template.split(TOKEN);
  // split with a capture group alternates literal, token, literal, …
  const source = parts.map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : '[A-Za-z0-9.+-]*')).join('');
  return { entry, pattern: new RegExp(`^${source}$`) };
});

/** The catalogue entry a sent command text belongs to (for the command records' type column). */
export function matchCommand(content: string): CommandEntry | undefined {
  const text = content.trim();
  return MATCHERS.find((matcher) => matcher.pattern.test(text))?.entry;
}

/** Label of a sent command text in a language, or the text itself when it is not in the catalogue. */
export function commandLabel(content: string, lang: string): string {
  const entry = matchCommand(content);
  return entry ? labelIn(entry, lang) : content;
}

function checkValue(token: string, value: string): boolean {
  if (!SAFE_VALUE.test(value)) return false;
  const range = /^(\d+)\.\.(\d+)$/.exec(token);
  if (range) return /^\d+$/.test(value) && Number(value) >= Number(range[1]) && Number(value) <= Number(range[2]);
  if (token.includes('|')) return token.split('|').includes(value);
  return true;
}

/**
 * Fills a template's placeholders; values are keyed by the text inside the braces
 * (renderCommand('SENLEVEL,{1..5}#', { '1..5': 3 }) → 'SENLEVEL,3#'). A missing or unsafe value, or one
 * outside a range or choice, is refused with 'command.invalidParameter'.
 */
export function renderCommand(
  template: string,
  values: Readonly<Record<string, string | number>> = {},
): Validated<string> {
  let bad: string | undefined;
  const text = template.replace(TOKEN, (_, token: string) => {
    const raw = Object.hasOwn(values, token) ? values[token] : undefined;
    const value = raw === undefined ? undefined : String(raw);
    if (value === undefined || !checkValue(token, value)) {
      bad ??= token;
      return '';
    }
    return value;
  });
  return bad === undefined ? accept(text) : refuse('command.invalidParameter', { name: bad });
}

/** Alarm post types: the M suffix of alarm commands (data/commands.json note). */
export const POST_TYPES = [
  { code: 0, cn: '平台', en: 'Platform', ...translatedLabels((t) => t.postTypes[0]) },
  { code: 1, cn: '平台+短信', en: 'Platform + SMS', ...translatedLabels((t) => t.postTypes[1]) },
  { code: 2, cn: '平台+短信+电话', en: 'Platform + SMS + call', ...translatedLabels((t) => t.postTypes[2]) },
  { code: 3, cn: '平台+电话', en: 'Platform + call', ...translatedLabels((t) => t.postTypes[3]) },
] as const;
