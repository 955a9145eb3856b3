import { COMMANDS, MENU_COMMANDS, SEED_DEVICE_TYPES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/command.json' with { type: 'json' };
import { COMMAND_GROUPS, commandMenu, groupsFor } from './menu.ts';
import { refusalBeforeSend, sendOutcome } from './sendFlow.ts';
import { buildCommand, defaultValues, templateFields } from './templateFields.ts';

const byId = (id: string) => {
  const c = COMMANDS.find((e) => e.id === id);
  if (!c) throw new Error(id);
  return c;
};

describe('command forms from the catalogue', () => {
  it('has a labelled field for every placeholder of every catalogue command', () => {
    const params = (en as { param: Record<string, string> }).param;
    for (const c of COMMANDS) {
      for (const f of templateFields(c.template)) {
        expect(params[f.labelKey.replace('param.', '')], `${c.id} {${f.token}}`).toBeTruthy();
      }
    }
  });

  it('builds a circular fence command with the radius in hundreds of metres', () => {
    const fence = byId('fenceIn');
    const fields = templateFields(fence.template);
    expect(fields.map((f) => f.kind)).toEqual(['number', 'number', 'radius', 'postType']);
    const values = defaultValues(fields, { lat: 39.9150001, lon: 116.404 });
    expect(values).toMatchObject({ lat: 39.915, lon: 116.404, 'radius/100': 500, M: 0 });
    expect(buildCommand(fence.template, { ...values, 'radius/100': 1500 })).toEqual({
      ok: true,
      content: 'FENCE,ON,0,N39.915,E116.404,15,IN,0#',
    });
  });

  it('refuses missing, out-of-range and unsafe values', () => {
    expect(buildCommand('SENLEVEL,{1..5}#', { '1..5': 3 })).toEqual({ ok: true, content: 'SENLEVEL,3#' });
    expect(buildCommand('SENLEVEL,{1..5}#', { '1..5': 9 })).toEqual({ ok: false, token: '1..5' });
    expect(buildCommand('SOS,A,{n1},{n2},{n3}#', { n1: '13800138000', n2: '', n3: '1' })).toEqual({
      ok: false,
      token: 'n2',
    });
    expect(buildCommand('CENTER,A,{number}#', { number: '138#RESET' })).toEqual({ ok: false, token: 'number' });
    expect(buildCommand('SERVER,{mode},{host},{port},0#', { mode: 1, host: 'gps.example.com', port: 5023 })).toEqual({
      ok: true,
      content: 'SERVER,1,gps.example.com,5023,0#',
    });
    expect(buildCommand('SERVER,{mode},{host},{port},0#', { mode: 1, host: 'a,b', port: 5023 }).ok).toBe(false);
    expect(buildCommand('<YG*W:1,{weekdays},{HHMM}>', { weekdays: '12345', HHMM: '08:30' })).toEqual({
      ok: true,
      content: '<YG*W:1,12345,0830>',
    });
    expect(buildCommand('<YG*W:1,{weekdays},{HHMM}>', { weekdays: '1', HHMM: '25:00' }).ok).toBe(false);
    expect(buildCommand('RELAY,1#', {})).toEqual({ ok: true, content: 'RELAY,1#' });
  });
});

describe('command menu per device', () => {
  it('gives GT06 devices the text-command groups and no 808 or tyre commands', () => {
    const groups = groupsFor({ deviceProtocol: 12, protocolType: 2 });
    expect(groups).toEqual(['query', 'oil', 'alarm', 'fence', 'mode', 'device']);
  });

  it('gives 808 terminals the AT+ commands, BSJ/GW the timed report, tyre models TPMS, NB-IoT a short menu', () => {
    expect(groupsFor({ deviceProtocol: 8, protocolType: 1 })).toContain('jt808');
    expect(groupsFor({ deviceProtocol: 8, protocolType: 1 })).not.toContain('alarm');
    expect(groupsFor({ deviceProtocol: 6, protocolType: 4 })).toContain('gw');
    expect(groupsFor({ deviceProtocol: 14, protocolType: 1 })).toContain('gw');
    expect(groupsFor({ deviceProtocol: 4, protocolType: 2 })).toContain('tyre');
    expect(groupsFor({ deviceProtocol: 9, protocolType: 0 })).toEqual(['query', 'alarm', 'mode']);
  });

  it('lists only catalogue commands, each group non-empty', () => {
    const ids = new Set(MENU_COMMANDS.map((c) => c.id));
    for (const list of Object.values(COMMAND_GROUPS)) for (const id of list) expect(ids.has(id), id).toBe(true);
    for (const { commands } of commandMenu({ deviceProtocol: 4, protocolType: 2 }))
      expect(commands.length).toBeGreaterThan(0);
  });
});

describe('send flow (spec §4)', () => {
  const base = { commandId: '7', terminalID: '1', reply: null, message: 'm' };
  it('reads a queued offline command, a success, a timeout and an error', () => {
    expect(sendOutcome({ success: true, message: '' }, { ...base, status: 'pending', result: null }).kind).toBe(
      'queued',
    );
    expect(
      sendOutcome({ success: true, message: '' }, { ...base, status: 'answered', result: 1, reply: 'OK' }),
    ).toEqual({
      kind: 'success',
      message: 'm',
      reply: 'OK',
    });
    expect(sendOutcome({ success: false, message: '' }, { ...base, status: 'timeout', result: 2 })).toEqual({
      kind: 'timeout',
      message: 'm',
      commandId: '7',
    });
    expect(
      sendOutcome({ success: false, message: 'refused' }, { ...base, status: 'refused', result: null, message: '' })
        .kind,
    ).toBe('error');
    expect(sendOutcome({ success: false, message: 'x' }, null)).toEqual({ kind: 'error', message: 'x', reply: null });
  });

  it('refuses the normal-mode command to an online device before sending', () => {
    expect(refusalBeforeSend('SWMODE,0#', { online: true, deviceProtocol: 12 })).toBe('command.onlineNormalMode');
    expect(refusalBeforeSend('SWMODE,0#', { online: false, deviceProtocol: 12 })).toBeNull();
    expect(refusalBeforeSend('  ', { online: true, deviceProtocol: 12 })).toBe('command.empty');
    expect(refusalBeforeSend('RELAY,1#', { online: true, deviceProtocol: 12 })).toBeNull();
  });
});

describe('device types as data keep every existing command menu', () => {
  it('gives every model on every protocol type the menu menu.ts hard-coded before (fixture)', async () => {
    const fixture = (await import('./legacyMenus.fixture.json', { with: { type: 'json' } })).default as unknown as {
      menus: Record<string, [string, string[]][]>;
      devices: Record<string, string>;
    };
    expect(Object.keys(fixture.devices).length).toBe(120);
    for (const [key, menuId] of Object.entries(fixture.devices)) {
      const [model, protocol] = key.split('/');
      const device = { deviceProtocol: Number(model), protocolType: protocol === '-' ? undefined : Number(protocol) };
      const now = commandMenu(device).map((g) => [g.group, g.commands.map((c) => `${c.id}=${c.template}`)]);
      expect(now, key).toEqual(fixture.menus[menuId]);
    }
  });

  it('follows an edited type: its menu, its labels and templates', () => {
    const edited = SEED_DEVICE_TYPES.map((t) =>
      t.deviceType === 12
        ? {
            ...t,
            menu: [{ group: 'mine', commands: [{ id: 'hello', template: 'HELLO,{1..3}#', label: { en: 'Hello' } }] }],
          }
        : t,
    );
    const menu = commandMenu({ deviceProtocol: 12, protocolType: 2 }, edited);
    expect(menu.map((g) => g.group)).toEqual(['mine']);
    expect(menu[0].commands[0]).toMatchObject({ id: 'hello', template: 'HELLO,{1..3}#', en: 'Hello' });
    expect(commandMenu({ deviceProtocol: 0, protocolType: 2 }, edited)[0].group).toBe('query');
  });
});
