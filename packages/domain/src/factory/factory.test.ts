import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';
import { judgeQc, type QcCriteria } from './qc.ts';
import { parseSerialV1 } from './serials.ts';
import { countOf, isIccid, normalizeIccid, splitCells, stockVerdict } from './stock.ts';
import { FACTORY_TEXTS, factoryText } from './texts.ts';

const facts = { valid: true, repeated: false, stocked: false, preset: true, qcPass: true as boolean | null };

describe('stock meaning and import verdicts', () => {
  it('applies the factory checks in order, and only the first three without them', () => {
    expect(stockVerdict(facts, true)).toBe('ok');
    expect(stockVerdict({ ...facts, valid: false, stocked: true }, true)).toBe('invalid');
    expect(stockVerdict({ ...facts, repeated: true, stocked: true }, true)).toBe('duplicate');
    expect(stockVerdict({ ...facts, stocked: true, preset: false }, true)).toBe('alreadyStocked');
    expect(stockVerdict({ ...facts, preset: false, qcPass: null }, true)).toBe('notPreset');
    expect(stockVerdict({ ...facts, qcPass: null }, true)).toBe('noFactoryTest');
    expect(stockVerdict({ ...facts, qcPass: false }, true)).toBe('qcFailed');
    expect(stockVerdict({ ...facts, preset: false, qcPass: false }, false)).toBe('ok');
    expect(stockVerdict({ ...facts, stocked: true }, false)).toBe('alreadyStocked');
  });

  it('every verdict lands in exactly one of the spec counts', () => {
    expect(countOf('ok')).toBe('success');
    expect(countOf('invalid')).toBe('unqualified');
    expect(countOf('qcFailed')).toBe('unqualified');
    expect(countOf('duplicate')).toBe('failure');
    expect(countOf('notPreset')).toBe('notPreset');
    expect(countOf('noFactoryTest')).toBe('noFactoryTest');
    expect(countOf('alreadyStocked')).toBe('alreadyStocked');
  });

  it('without factory checks a valid, new, unrepeated IMEI is always accepted', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.option(fc.boolean(), { nil: null }), (preset, qcPass) => {
        expect(stockVerdict({ ...facts, preset, qcPass }, false)).toBe('ok');
      }),
    );
  });

  it('splits cells on tabs, commas, semicolons or spaces', () => {
    expect(splitCells(' 868120301234567\tGt06\t8986001\t')).toEqual(['868120301234567', 'Gt06', '8986001']);
    expect(splitCells('868120301234567, Gt06')).toEqual(['868120301234567', 'Gt06']);
    expect(splitCells('868120301234567  Gt06')).toEqual(['868120301234567', 'Gt06']);
    expect(splitCells('   ')).toEqual([]);
  });

  it('recognises and normalises ICCIDs', () => {
    expect(isIccid('8986001234567890123')).toBe(true);
    expect(isIccid('8986001234567890123F')).toBe(true);
    expect(isIccid('898600123456789012')).toBe(false);
    expect(normalizeIccid(' 8986001234567890123f ')).toBe('8986001234567890123');
  });
});

describe('QC pass/fail against the model criteria', () => {
  const criteria: QcCriteria = { model: 'Gt06', minSatellites: 6, minCn0: 38, minGsm: 15, firmware: 'V2.1' };
  const good = { satellites: 9, cn0: 42, gsm: 20, firmware: 'V2.1', stationPass: true };

  it('passes a result that reaches every minimum', () => {
    expect(judgeQc(good, criteria)).toEqual({ pass: true, failures: [] });
  });

  it('names every measure that falls short, a missing one included', () => {
    expect(judgeQc({ ...good, satellites: 5, cn0: null, firmware: 'V2.0' }, criteria)).toEqual({
      pass: false,
      failures: ['satellites', 'cn0', 'firmware'],
    });
    expect(judgeQc({ ...good, gsm: 14 }, criteria).failures).toEqual(['gsm']);
  });

  it("without criteria the station's verdict decides", () => {
    expect(judgeQc({ ...good, satellites: 0 }, null).pass).toBe(true);
    expect(judgeQc({ ...good, stationPass: false }, null)).toEqual({ pass: false, failures: ['station'] });
  });

  it('a result at exactly the minimum passes; one below fails (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (min, value) => {
        const verdict = judgeQc({ ...good, satellites: value }, { ...criteria, minSatellites: min });
        expect(verdict.pass).toBe(value >= min);
      }),
    );
  });
});

describe('serial results v1', () => {
  it('parses good lines and reports bad ones with their line numbers', () => {
    const { results, errors } = parseSerialV1(
      [
        '# station log',
        '868120301234567,Gt06,V2.1,24,9,43,PASS,B1,32',
        '868120301234568\tGt06\tV2.1\t\t\t\tNG',
        'nonsense',
        '12,Gt06,V2.1,1,1,1,PASS',
        '868120301234569,Gt06,V2.1,x,9,43,PASS',
        '868120301234560,Gt06,V2.1,24,9,43,MAYBE',
      ].join('\n'),
      'S1',
    );
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      imei: '868120301234567',
      gsm: 24,
      satellites: 9,
      cn0: 43,
      ttff: 32,
      batch: 'B1',
      stationPass: true,
      station: 'S1',
    });
    expect(results[1]).toMatchObject({ gsm: null, satellites: null, stationPass: false, batch: '' });
    expect(errors.map((e) => [e.line, e.problem])).toEqual([
      [4, 'fields'],
      [5, 'imei'],
      [6, 'number'],
      [7, 'result'],
    ]);
  });
});

describe('factory texts', () => {
  it('every text exists in all 11 languages', () => {
    for (const [key, entry] of Object.entries(FACTORY_TEXTS)) {
      for (const lang of LANGUAGES) expect((entry as Record<string, string>)[lang], `${key} ${lang}`).toBeTruthy();
    }
    expect(factoryText('stock.unknownModel', 'fr', { model: 'X' })).toBe('Modèle inconnu : X');
    expect(factoryText('stock.notPreset', 'xx')).toBe('Not preset');
  });
});
