import { describe, expect, it } from 'vitest';
import { needsTwoFactor } from '../../../../renderer/sites/session.js';

describe('two-factor detection', () => {
  it.each([
    ['dc-a: two-factor authentication is on: a code is required', true],
    ['dc-a: login refused (Invalid two-factor authentication code.); the two-factor code may be wrong or expired', true],
    ['dc-a: no password stored; log in to this site', false],
    ['dc-a: login refused (Invalid username or password.)', false],
    [undefined, false],
  ])('%s → %s', (message, expected) => {
    expect(needsTwoFactor(message)).toBe(expected);
  });
});
