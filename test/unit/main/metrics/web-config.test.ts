import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { BasicAuth } from '../../../../main/metrics/web-config.js';

const header = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('basic auth of the metrics endpoint', () => {
  const auth = new BasicAuth(new Map([['reader', bcrypt.hashSync('pa:ss wörd', 4)]]));

  it('accepts the configured password (a colon in it included) and remembers the success', async () => {
    expect(await auth.check(header('reader', 'pa:ss wörd'))).toBe(true);
    expect(await auth.check(header('reader', 'pa:ss wörd'))).toBe(true);
  });

  it('refuses a wrong password, an unknown user and headers that are not basic credentials', async () => {
    expect(await auth.check(header('reader', 'pa:ss word'))).toBe(false);
    expect(await auth.check(header('writer', 'pa:ss wörd'))).toBe(false);
    for (const h of [undefined, '', 'Bearer abc', 'Basic', `Basic ${Buffer.from('no-colon').toString('base64')}`]) expect(await auth.check(h), String(h)).toBe(false);
  });

  it('accepts the $2y$ hashes htpasswd makes', async () => {
    const y = bcrypt.hashSync('s3cret', 4).replace(/^\$2b\$/, '$2y$');
    expect(await new BasicAuth(new Map([['u', y]])).check(header('u', 's3cret'))).toBe(true);
  });
});
