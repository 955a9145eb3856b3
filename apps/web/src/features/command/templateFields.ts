// The form of a catalogue command: one field per placeholder of its template ({name} free value, {1..5}
// range, {A|B} choice, {M} alarm post type, {radius/100} a radius in metres sent in hundreds of metres).
// The text itself is built by the domain's renderCommand, which refuses unsafe or out-of-range values.
import { COMMAND_PARAMETER_RULES, type MessageKey, POST_TYPES, renderCommand } from '@carhere/domain';

export type FieldKind = 'text' | 'number' | 'range' | 'choice' | 'postType' | 'radius' | 'phone' | 'time';

export interface CommandField {
  /** the placeholder text, the key of renderCommand's values */
  token: string;
  kind: FieldKind;
  /** i18n key (command namespace) of the field label */
  labelKey: string;
  min?: number;
  max?: number;
  choices?: string[];
}

const TOKEN = /\{([^}]*)\}/g;

/** Label keys and kinds of the named placeholders in the catalogue. */
const NAMED: Readonly<Record<string, { kind: FieldKind; labelKey: string; min?: number; max?: number }>> = {
  lat: { kind: 'number', labelKey: 'param.lat', min: 0, max: 90 },
  lon: { kind: 'number', labelKey: 'param.lon', min: 0, max: 180 },
  'radius/100': { kind: 'radius', labelKey: 'param.radius', min: 100, max: 1_000_000 },
  radius: { kind: 'number', labelKey: 'param.radius', min: 1, max: 100_000 },
  M: { kind: 'postType', labelKey: 'param.postType' },
  n1: { kind: 'phone', labelKey: 'param.n1' },
  n2: { kind: 'phone', labelKey: 'param.n2' },
  n3: { kind: 'phone', labelKey: 'param.n3' },
  number: { kind: 'phone', labelKey: 'param.number' },
  time: { kind: 'number', labelKey: 'param.duration', min: 1, max: 3600 },
  speed: { kind: 'number', labelKey: 'param.speed', min: 1, max: 300 },
  km: { kind: 'number', labelKey: 'param.km', min: 0, max: 10_000_000 },
  minutes: { kind: 'number', labelKey: 'param.minutes', min: 0, max: 1440 },
  metres: { kind: 'number', labelKey: 'param.metres', min: 0, max: 100_000 },
  seconds: { kind: 'number', labelKey: 'param.seconds', min: 5, max: 86_400 },
  hours: { kind: 'number', labelKey: 'param.hours', min: 0, max: 12 },
  a: { kind: 'number', labelKey: 'param.timerA', min: 0, max: 65_535 },
  b: { kind: 'number', labelKey: 'param.timerB', min: 0, max: 65_535 },
  c: { kind: 'number', labelKey: 'param.timerC', min: 0, max: 65_535 },
  mode: { kind: 'number', labelKey: 'param.serverMode', min: 0, max: 1 },
  host: { kind: 'text', labelKey: 'param.host' },
  port: { kind: 'number', labelKey: 'param.port', min: 1, max: 65_535 },
  weekdays: { kind: 'text', labelKey: 'param.weekdays' },
  HHMM: { kind: 'time', labelKey: 'param.clock' },
  // Work-mode parameters (spec §5), checked by the domain's COMMAND_PARAMETER_RULES here and on the server.
  timeMode: { kind: 'number', labelKey: 'param.timeMode', min: 0, max: 1440 },
  powerOn: { kind: 'time', labelKey: 'param.powerOn' },
  interval: { kind: 'number', labelKey: 'param.interval', min: 1, max: 720 },
};

export function templateFields(template: string): CommandField[] {
  const fields: CommandField[] = [];
  for (const match of template.matchAll(TOKEN)) {
    const token = match[1];
    if (fields.some((f) => f.token === token)) continue;
    const range = /^(\d+)\.\.(\d+)$/.exec(token);
    if (range) {
      fields.push({ token, kind: 'range', labelKey: 'param.level', min: Number(range[1]), max: Number(range[2]) });
    } else if (token.includes('|')) {
      fields.push({ token, kind: 'choice', labelKey: choiceLabel(token), choices: token.split('|') });
    } else {
      if (token === 'mixed') {
        fields.push({ token, kind: 'choice', labelKey: 'param.mixed', choices: ['1', '0'] });
        continue;
      }
      const named = NAMED[token];
      fields.push(named ? { token, ...named } : { token, kind: 'text', labelKey: 'param.value' });
    }
  }
  return fields;
}

function choiceLabel(token: string): string {
  if (token === 'ON|OFF') return 'param.switch';
  if (token === 'E|W') return 'param.hemisphere';
  return 'param.recordSeconds';
}

export type FieldValues = Record<string, string | number | undefined | null>;

/** The value sent for a field ({radius/100}: metres → hundreds of metres; {HHMM}: 'HH:mm' → 'HHmm'). */
export function sentValue(field: CommandField, value: string | number | undefined | null): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (field.kind === 'radius') return String(Math.max(1, Math.round(Number(value) / 100)));
  if (field.kind === 'time') return String(value).replace(':', '');
  if (field.kind === 'number') return Number.isFinite(Number(value)) ? String(value) : undefined;
  return String(value).trim();
}

/** The command text for the form values, or the name of the first missing or refused field. */
export function buildCommand(
  template: string,
  values: FieldValues,
): { ok: true; content: string } | { ok: false; token: string; message?: MessageKey } {
  const fields = templateFields(template);
  const sent: Record<string, string> = {};
  for (const field of fields) {
    const rule = COMMAND_PARAMETER_RULES[field.token];
    const raw = values[field.token];
    if (rule && raw !== undefined && raw !== null && raw !== '') {
      const checked = rule(String(raw).trim());
      if (!checked.ok) return { ok: false, token: field.token, message: checked.message };
    }
    const v = sentValue(field, raw);
    if (v === undefined) return { ok: false, token: field.token };
    if (field.kind === 'phone' && !/^\+?\d{3,20}$/.test(v)) return { ok: false, token: field.token };
    if (field.kind === 'time' && !/^([01]\d|2[0-3])[0-5]\d$/.test(v)) return { ok: false, token: field.token };
    sent[field.token] = v;
  }
  const rendered = renderCommand(template, sent);
  if (!rendered.ok) return { ok: false, token: String(rendered.params?.name ?? '') };
  return { ok: true, content: rendered.value };
}

/** Default values: the alarm post type 'platform', the device's position for a fence. */
export function defaultValues(fields: CommandField[], position?: { lat: number; lon: number } | null): FieldValues {
  const values: FieldValues = {};
  for (const f of fields) {
    if (f.kind === 'postType') values[f.token] = POST_TYPES[0].code;
    if (f.kind === 'range') values[f.token] = f.min;
    if (f.kind === 'choice') values[f.token] = f.choices?.[0];
    if (f.kind === 'radius') values[f.token] = 500;
    if (f.token === 'lat' && position) values.lat = Number(position.lat.toFixed(6));
    if (f.token === 'lon' && position) values.lon = Number(position.lon.toFixed(6));
  }
  return values;
}
