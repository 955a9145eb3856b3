import { describe, expect, it } from 'vitest';
import { COMMANDS, commandLabel, matchCommand, POST_TYPES, renderCommand } from './commandCatalogue.ts';
import commandData from './data/commands.json' with { type: 'json' };

describe('command catalogue', () => {
  it('holds about 50 commands with unique ids and templates and cn/en labels', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length);
    expect(new Set(COMMANDS.map((c) => c.template)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      expect(c.cn.trim(), c.id).not.toBe('');
      expect(c.en.trim(), c.id).not.toBe('');
    }
  });

  it('includes every reference template, marked reference, label without notes', () => {
    for (const entry of commandData.commands) {
      const found = COMMANDS.find((c) => c.template === entry.template);
      expect(found?.source, entry.template).toBe('reference');
      expect(entry.label.startsWith(found!.cn) || entry.label.endsWith(found!.cn)).toBe(true);
    }
  });

  it('includes the commands spec §9 names', () => {
    const templates = COMMANDS.map((c) => c.template).join(' ');
    for (const word of [
      'WORKMODE',
      'SOS',
      'CENTER',
      'MOVING',
      'RELAY,0#',
      'RELAY,1#',
      'POWERALM',
      'SPEED',
      'BATALM',
      'RESET',
      'FENCE',
      'SENALM',
      'RMV',
      'MILEAGE',
      'SLEEP',
      'DEFTIME',
      'DEFDIS',
      'BCHG',
      'BRELAY',
      'BIND#',
      'UBIND#',
      'qCODS#',
      'SWMODE,0#',
    ]) {
      expect(templates, word).toContain(word);
    }
  });

  it('matches sent texts back to their entry', () => {
    expect(matchCommand('RELAY,1#')?.id).toBe('relayCut');
    expect(matchCommand(' SENLEVEL,3# ')?.id).toBe('vibrationLevel');
    expect(matchCommand('FENCE,ON,0,N22.5,E114.1,5,IN,1#')?.id).toBe('fenceIn');
    expect(matchCommand('FENCE,ON,0,N22.5,E114.1,5,,1#')?.id).toBe('fenceInOut');
    expect(matchCommand('SWMODE,0#')?.id).toBe('normalMode');
    expect(matchCommand('NOPE#')).toBeUndefined();
    expect(commandLabel('RESET#', 'cn')).toBe('重启');
    expect(commandLabel('RESET#', 'en')).toBe('Restart');
    expect(commandLabel('NOPE#', 'en')).toBe('NOPE#');
  });

  it('renders templates with checked values', () => {
    expect(renderCommand('SENLEVEL,{1..5}#', { '1..5': 3 })).toEqual({ ok: true, value: 'SENLEVEL,3#' });
    expect(renderCommand('SENLEVEL,{1..5}#', { '1..5': 5 }).ok).toBe(true);
    expect(renderCommand('SENLEVEL,{1..5}#', { '1..5': 6 })).toEqual({
      ok: false,
      message: 'command.invalidParameter',
      params: { name: '1..5' },
    });
    expect(renderCommand('SENLEVEL,{1..5}#', { '1..5': 0 }).ok).toBe(false);
    expect(renderCommand('LY,{999|0|30|60|120|180|240|300}#', { '999|0|30|60|120|180|240|300': 60 })).toEqual({
      ok: true,
      value: 'LY,60#',
    });
    expect(renderCommand('LY,{999|0|30|60|120|180|240|300}#', { '999|0|30|60|120|180|240|300': 61 }).ok).toBe(false);
    expect(renderCommand('SPEED,ON,{time},{speed},{M}#', { time: 20, speed: 100, M: 1 })).toEqual({
      ok: true,
      value: 'SPEED,ON,20,100,1#',
    });
    expect(renderCommand('RESET#').ok).toBe(true);
  });

  it('refuses missing values and values that would smuggle in another command', () => {
    expect(renderCommand('SPEED,ON,{time},{speed},{M}#', { time: 20, speed: 100 }).ok).toBe(false);
    for (const bad of ['1#RESET', '1,2', '1;', '<x>', 'a b']) {
      expect(renderCommand('CENTER,A,{number}#', { number: bad }).ok, bad).toBe(false);
    }
    expect(renderCommand('CENTER,A,{number}#', { number: '+8613800138000' }).ok).toBe(true);
  });

  it('post types 0-3', () => {
    expect(POST_TYPES.map((p) => p.en)).toEqual([
      'Platform',
      'Platform + SMS',
      'Platform + SMS + call',
      'Platform + call',
    ]);
  });
});
