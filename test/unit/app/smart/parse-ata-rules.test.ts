import { describe, expect, it } from 'vitest';
import { ATA_CRITICAL_RAW, parseSmart, type AtaAttribute } from '../../../../app/smart/parse.js';

const HEADER = 'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE';

/** One attribute row of smartctl's `-A` table, read back by the parser. */
function attr(o: { id?: number; name?: string; value?: number; thresh?: string; when?: string; raw?: string }, previous?: string): AtaAttribute {
  const row = (raw: string) => `${String(o.id ?? 1).padStart(3)} ${(o.name ?? 'Raw_Read_Error_Rate').padEnd(23)} 0x002f   ${String(o.value ?? 100).padStart(3, '0')}   100   ${o.thresh ?? '010'}    Pre-fail  Always       ${o.when ?? '-'}       ${raw}`;
  const before = previous === undefined ? undefined : parseSmart([HEADER, row(previous)].join('\n'));
  return parseSmart([HEADER, row(o.raw ?? '0')].join('\n'), before).attributes[0] as AtaAttribute;
}

describe('ATA attribute rules', () => {
  it('rates an attribute at or below its threshold critical, and one above it ok', () => {
    expect(attr({ value: 10, thresh: '010' })).toMatchObject({ risk: 'critical', reason: 'normalised value 10 is at or below the threshold 10' });
    expect(attr({ value: 9, thresh: '010' }).risk).toBe('critical');
    expect(attr({ value: 11, thresh: '010' }).risk).toBe('ok');
  });

  it('never rates by a threshold of 0 or one not printed', () => {
    expect(attr({ value: 0, thresh: '000' }).risk).toBe('ok');
    expect(attr({ value: 1, thresh: '---' })).toMatchObject({ thresh: undefined, risk: 'ok' });
  });

  it('says "failing now" when only WHEN_FAILED says so, and the threshold when the value says so too', () => {
    expect(attr({ value: 100, when: 'FAILING_NOW' })).toMatchObject({ risk: 'critical', reason: 'failing now' });
    expect(attr({ value: 5, when: 'FAILING_NOW' })).toMatchObject({ risk: 'critical', reason: 'normalised value 5 is at or below the threshold 10' });
    expect(attr({ value: 100, thresh: '---', when: 'FAILING_NOW' })).toMatchObject({ risk: 'critical', reason: 'failing now' });
    expect(attr({ value: 0, thresh: '000', when: 'FAILING_NOW' })).toMatchObject({ risk: 'critical', reason: 'failing now' });
  });

  it('rates a failure in the past a warning, and a WHEN_FAILED it does not know unknown, naming it', () => {
    expect(attr({ when: 'In_the_past' })).toMatchObject({ risk: 'warning', reason: 'failed in the past' });
    expect(attr({ when: 'Sometimes' })).toMatchObject({ risk: 'unknown', reason: 'WHEN_FAILED "Sometimes" not understood' });
  });

  it('rates a watched count above 0 a warning, at its limit critical, and an unwatched count not at all', () => {
    const limit = ATA_CRITICAL_RAW[5] as number;
    expect(attr({ id: 5, name: 'Reallocated_Sector_Ct', raw: '0' }).risk).toBe('ok');
    expect(attr({ id: 5, name: 'Reallocated_Sector_Ct', raw: '3' })).toMatchObject({ risk: 'warning', reason: 'raw count 3 is above 0' });
    expect(attr({ id: 5, name: 'Reallocated_Sector_Ct', raw: String(limit - 1) }).risk).toBe('warning');
    expect(attr({ id: 5, name: 'Reallocated_Sector_Ct', raw: String(limit) })).toMatchObject({ risk: 'critical', reason: `raw count ${limit} is at or above ${limit}` });
    expect(attr({ id: 9, name: 'Power_On_Hours', raw: '5000' }).risk).toBe('ok');
    expect(attr({ id: 5, name: 'Reallocated_Sector_Ct', raw: '-' }).risk).toBe('ok');
  });

  it('rates a watched count that grew since the earlier reading critical, and a steady one by its size', () => {
    expect(attr({ id: 197, name: 'Current_Pending_Sector', raw: '3' }, '1')).toMatchObject({ risk: 'critical', reason: 'raw count grew from 1 to 3' });
    expect(attr({ id: 197, name: 'Current_Pending_Sector', raw: '3' }, '3')).toMatchObject({ risk: 'warning', reason: 'raw count 3 is above 0' });
  });
});

describe('NVMe spare rule', () => {
  const log = (lines: string[]) => parseSmart(['SMART/Health Information (NVMe Log 0x02)', 'Critical Warning: 0x00', ...lines, ''].join('\n'));

  it('rates the spare against the threshold only when a threshold is printed', () => {
    expect(log(['Available Spare: 5%', 'Available Spare Threshold: 10%']).risk).toBe('critical');
    expect(log(['Available Spare: 10%', 'Available Spare Threshold: 10%']).risk).toBe('ok');
    expect(log(['Available Spare: 5%']).risk).toBe('ok');
  });
});
