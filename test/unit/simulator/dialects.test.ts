import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, parseDialects } from '../../../simulator/dialects.js';

describe('dialect lists', () => {
  it('reads a comma-separated list or an array, in any case, once each, blanks ignored', () => {
    expect(parseDialects('sas-smart')).toEqual(['sas-smart']);
    expect(parseDialects(' SAS-Smart , ,sas-smart')).toEqual(['sas-smart']);
    expect(parseDialects(['sas-smart'])).toEqual(['sas-smart']);
    expect(parseDialects('')).toEqual([]);
    expect(parseDialects([])).toEqual([]);
  });

  it('refuses an unknown name, naming the known ones, and a value that is not a name', () => {
    expect(() => parseDialects('sas-smart,envelope?')).toThrow(new RangeError(`unknown dialect "envelope?": known dialects are ${DIALECT_NAMES.join(', ')}`));
    expect(() => parseDialects(['__proto__'])).toThrow(/unknown dialect "__proto__"/);
    expect(() => parseDialects([3])).toThrow('a dialect is a name, got 3');
  });
});
