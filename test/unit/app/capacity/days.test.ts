import { describe, expect, it } from 'vitest';
import { daysPhrase, daysText, forecastBasis, type ForecastWords } from '../../../../app/capacity/days.js';

const words = (w: Partial<ForecastWords>): ForecastWords => ({ status: 'growing', basis: 'free', capacity: 100, samples: 30, ...w });

describe('daysPhrase', () => {
  it('says whole days, singular for one, rounded to the nearest day', () => {
    expect(daysPhrase(1)).toBe('1 day');
    expect(daysPhrase(0.6)).toBe('1 day');
    expect(daysPhrase(12)).toBe('12 days');
    expect(daysPhrase(11.6)).toBe('12 days');
    expect(daysPhrase(0)).toBe('0 days');
  });

  it('caps at ten years and says ∞ for a forecast that never ends', () => {
    expect(daysPhrase(3650)).toBe('3650 days');
    expect(daysPhrase(3650.4)).toBe('> 10 years');
    expect(daysPhrase(Number.POSITIVE_INFINITY)).toBe('∞');
    expect(daysPhrase(Number.NaN)).toBe('∞');
  });
});

describe('daysText', () => {
  it('gives every table cell the same words for each status', () => {
    expect(daysText(words({ status: 'full', days: 0 }))).toBe('full now');
    expect(daysText(words({ status: 'growing', days: 31 }))).toBe('31 days');
    expect(daysText(words({ status: 'growing' }))).toBe('0 days');
    expect(daysText(words({ status: 'not-growing' }))).toBe('not growing');
    expect(daysText(words({ status: 'insufficient-data', capacity: 100 }))).toBe('not enough history');
    expect(daysText(words({ status: 'insufficient-data', capacity: 0 }))).toBe('usable unknown');
  });
});

describe('forecastBasis', () => {
  it('states what the days measure and through how many samples the line is fitted', () => {
    expect(forecastBasis({ basis: 'free', samples: 30 })).toBe('free space (usable − allocated) used up at the growth of consumed data (least-squares line through 30 samples)');
    expect(forecastBasis({ basis: 'consumed', samples: 1 })).toBe('consumed data reaching usable at the growth of consumed data (least-squares line through 1 sample); no allocated figure');
    expect(forecastBasis({ basis: 'state', samples: 30 })).toBe('the system judges the pool full now (its state, or under 1 % free)');
  });
});
