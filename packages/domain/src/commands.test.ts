import { describe, expect, it } from 'vitest';
import oilData from './catalogues/data/oil-control-replies.json' with { type: 'json' };
import {
  COMMAND_RESULT,
  COMMAND_SUCCESS_MARKERS,
  classifyCommandReply,
  classifyCommandResult,
  decideCommandSend,
  isNormalModeCommand,
  isQueryCommand,
  OIL_SUCCESS_MARKERS,
  oilControlOutcome,
} from './commands.ts';

describe('decideCommandSend', () => {
  it('refuses SWMODE,0# to an online device', () => {
    expect(decideCommandSend({ content: 'SWMODE,0#', online: true })).toEqual({
      action: 'refuse',
      message: 'command.onlineNormalMode',
    });
    expect(decideCommandSend({ content: ' swmode,0# ', online: true }).action).toBe('refuse');
    expect(isNormalModeCommand('SWMODE,0,0#')).toBe(false);
    expect(decideCommandSend({ content: 'SWMODE,0,0#', online: true })).toEqual({ action: 'live' });
  });

  it('queues SWMODE,0# and anything else for an offline device', () => {
    expect(decideCommandSend({ content: 'SWMODE,0#', online: false })).toEqual({ action: 'offline' });
    expect(decideCommandSend({ content: 'RELAY,1#', online: false })).toEqual({ action: 'offline' });
  });

  it('refuses offline when the caller does not allow offline commands', () => {
    expect(decideCommandSend({ content: 'RELAY,1#', online: false, offlineAllowed: false })).toEqual({
      action: 'refuse',
      message: 'command.offlineNotAllowed',
    });
    expect(decideCommandSend({ content: 'RELAY,1#', online: true, offlineAllowed: false }).action).toBe('live');
  });

  it('sends live to an online device', () => {
    expect(decideCommandSend({ content: 'RELAY,1#', online: true })).toEqual({ action: 'live' });
  });

  it('needs a deviceId for NB-IoT models (9, 11), before anything else', () => {
    for (const deviceModel of [9, 11]) {
      for (const online of [true, false]) {
        expect(decideCommandSend({ content: 'RELAY,1#', online, deviceModel })).toEqual({
          action: 'refuse',
          message: 'command.nbDeviceIdMissing',
        });
        expect(decideCommandSend({ content: 'RELAY,1#', online, deviceModel, deviceId: ' ' }).action).toBe('refuse');
      }
      expect(decideCommandSend({ content: 'RELAY,1#', online: true, deviceModel, deviceId: 'abc' })).toEqual({
        action: 'live',
      });
    }
    expect(decideCommandSend({ content: 'RELAY,1#', online: true, deviceModel: 8 })).toEqual({ action: 'live' });
  });

  it('refuses an empty command', () => {
    expect(decideCommandSend({ content: '  ', online: true })).toEqual({ action: 'refuse', message: 'command.empty' });
  });
});

describe('classifyCommandResult', () => {
  it('codes 1 success, 2 timeout, 3 error', () => {
    expect(COMMAND_RESULT).toEqual({ success: 1, timeout: 2, error: 3 });
  });

  it('success for each marker', () => {
    expect(COMMAND_SUCCESS_MARKERS).toEqual(['OK', 'ok', 'Success', 'successfully', 'Already', 'success']);
    for (const reply of ['RELAY:OK', 'set ok!', 'Cut off: Success!', 'done successfully', 'Already cut', 'success']) {
      expect(classifyCommandResult(reply), reply).toBe(1);
    }
  });

  it('timeout, then error', () => {
    expect(classifyCommandResult('timeout')).toBe(2);
    expect(classifyCommandResult('request timeout, retry')).toBe(2);
    expect(classifyCommandResult('Timeout')).toBe(3);
    expect(classifyCommandResult('RELAY,ERROR:103')).toBe(3);
    expect(classifyCommandResult('')).toBe(3);
    expect(classifyCommandResult(null)).toBe(3);
  });

  it('markers are case-sensitive substrings as in the spec', () => {
    expect(classifyCommandResult('OKAY')).toBe(1);
    expect(classifyCommandResult('Ok')).toBe(3);
    expect(classifyCommandResult('SUCCESS')).toBe(3);
  });
});

describe('oilControlOutcome', () => {
  it('uses the five reference success markers', () => {
    expect(OIL_SUCCESS_MARKERS).toEqual(oilData.success_markers);
    for (const marker of OIL_SUCCESS_MARKERS) {
      expect(oilControlOutcome(`x ${marker} y`)).toEqual({ outcome: 'success', messages: ['oil.success'] });
    }
  });

  it('maps each reference reply to its message', () => {
    const expected: Record<string, string> = {
      timeout: 'oil.timeout',
      'RELAY,ERROR:103': 'oil.parameterError',
      'RELAY,ERROR:104': 'oil.commandError',
      'has been cut': 'oil.alreadyCut',
      'GPS has Not FIXED': 'oil.gpsNotFixed',
      Resume: 'oil.alreadyResumed',
      'control oil Failed': 'oil.controlFailed',
      'supply cut off': 'oil.supplyCutOff',
      'supply to resume': 'oil.supplyResumed',
      fail: 'oil.controlFailed',
    };
    for (const { contains } of oilData.replies) {
      expect(oilControlOutcome(`<${contains}>`).messages[0], contains).toBe(expected[contains]);
    }
  });

  it('timeout outcome, several matches in reference order, generic failure, no reply', () => {
    expect(oilControlOutcome('timeout')).toEqual({ outcome: 'timeout', messages: ['oil.timeout'] });
    expect(oilControlOutcome('Resume fail').messages).toEqual(['oil.alreadyResumed', 'oil.controlFailed']);
    expect(oilControlOutcome('Speed Limit,control oil Failed!')).toEqual({
      outcome: 'failure',
      messages: ['oil.controlFailed'],
    });
    expect(oilControlOutcome('???')).toEqual({ outcome: 'failure', messages: ['oil.controlFailed'] });
    expect(oilControlOutcome(null)).toEqual({ outcome: 'failure', messages: ['oil.noResponse'] });
  });

  it('success markers win over failure texts (as the reference client checks them first)', () => {
    expect(oilControlOutcome('Already in the state of fuel supply cut off').outcome).toBe('success');
  });
});

describe('classifyCommandReply', () => {
  it('a data reply to a query command is a success with its text', () => {
    const status = 'Battery:4.02V,NORMAL; GPRS:Link Up; GSM Signal Level:Strong; GPS:Successful positioning';
    expect(classifyCommandReply({ content: 'STATUS#', reply: status })).toBe(1);
    expect(classifyCommandReply({ content: 'PARAM#', reply: 'IMEI:868120145233604;TIMER:10,10;SOS:,,;' })).toBe(1);
    expect(classifyCommandReply({ content: ' where# ', reply: 'Lat:N22.5,Lon:E113.9,Course:0,Speed:0' })).toBe(1);
    // The same texts under the word rule were errors (the bug this fixes).
    expect(classifyCommandResult('IMEI:868120145233604;TIMER:10,10;SOS:,,;')).toBe(3);
  });

  it('JT/T 808 data answers (0x0104 parameters) are a success whatever the command text', () => {
    expect(classifyCommandReply({ content: 'anything', reply: '0x0001=30;0x0013=host', form: 'data' })).toBe(1);
    expect(classifyCommandReply({ content: 'PARAM#', reply: '', form: 'data' })).toBe(3);
  });

  it('setting commands keep the spec word rule', () => {
    expect(classifyCommandReply({ content: 'RELAY,1#', reply: 'RELAY,ERROR:103' })).toBe(3);
    expect(classifyCommandReply({ content: 'TIMER,10#', reply: 'TIMER is set OK' })).toBe(1);
    expect(classifyCommandReply({ content: 'TIMER,10#', reply: 'request timeout' })).toBe(2);
    expect(classifyCommandReply({ content: 'STATUS,1#', reply: 'Battery:4.02V' })).toBe(3);
  });

  it('an empty reply or a bare failure acknowledgement of a query is not a success', () => {
    expect(classifyCommandReply({ content: 'STATUS#', reply: '' })).toBe(3);
    expect(classifyCommandReply({ content: 'STATUS#', reply: null })).toBe(3);
    expect(classifyCommandReply({ content: 'WHERE#', reply: 'not supported', form: 'ack' })).toBe(3);
    expect(classifyCommandReply({ content: 'WHERE#', reply: 'OK', form: 'ack' })).toBe(1);
  });

  it('recognises query commands', () => {
    expect(['STATUS#', 'param#', 'WHERE', 'VERSION#'].every(isQueryCommand)).toBe(true);
    expect(['RELAY,1#', 'STATUS,1#', 'TIMER,10#', '', 'STATUSX#'].some(isQueryCommand)).toBe(false);
  });
});
