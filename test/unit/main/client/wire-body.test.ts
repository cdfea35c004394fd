import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../../main/client/errors.js';
import { bodyText, decodeContent, isJsonText, pageSummary, parseRetryAfter, serverMessage } from '../../../../main/client/wire-body.js';

const JSON_TEXT = JSON.stringify({ Data: [{ Name: 'esx01' }, { Name: 'esx02' }] });
const where = 'site GET /hosts/list';

describe('answer bodies', () => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decodes %s', async (coding, compress) => {
    const out = await decodeContent(compress(Buffer.from(JSON_TEXT)), coding, 1 << 20, where);
    expect(out.toString('utf8')).toBe(JSON_TEXT);
  });

  it('decodes raw deflate sent as "deflate" (old servers), and stacked encodings in reverse order', async () => {
    expect((await decodeContent(deflateRawSync(Buffer.from(JSON_TEXT)), 'deflate', 1 << 20, where)).toString()).toBe(JSON_TEXT);
    const twice = brotliCompressSync(gzipSync(Buffer.from(JSON_TEXT)));
    expect((await decodeContent(twice, 'gzip, br', 1 << 20, where)).toString()).toBe(JSON_TEXT);
    expect((await decodeContent(Buffer.from(JSON_TEXT), 'identity', 1 << 20, where)).toString()).toBe(JSON_TEXT);
  });

  it('refuses an unknown encoding or bytes that do not decode as a protocol error naming them', async () => {
    await expect(decodeContent(Buffer.from('x'), 'zstd', 1 << 20, where)).rejects.toThrow(/encoded as "zstd", which Fleetdeck cannot decode/);
    const bad = await decodeContent(Buffer.from('not gzip at all'), 'gzip', 1 << 20, where).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ProtocolError);
    expect((bad as Error).message).toMatch(/gzip-compressed but does not decode/);
  });

  it('never expands a small compressed answer past the limit (a compression bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(decodeContent(bomb, 'gzip', 1024 * 1024, where)).rejects.toMatchObject({ code: 'ERR_BUFFER_TOO_LARGE' });
  });

  it('drops a UTF-8 byte order mark, which JSON.parse refuses', () => {
    const withBom = Buffer.from(`\uFEFF${JSON_TEXT}`, 'utf8');
    expect(() => JSON.parse(withBom.toString('utf8'))).toThrow();
    expect(JSON.parse(bodyText(withBom))).toEqual(JSON.parse(JSON_TEXT));
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 0, 15, 10, 0, 0);
  it('reads delay-seconds and an HTTP-date, a past date as 0', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const v of [undefined, '', 'soon', '-5', '1.5', '12:00']) expect(parseRetryAfter(v, now), String(v)).toBeUndefined();
  });
});

describe('what a failure answer says', () => {
  it('shows an RFC 7807 problem as its title and detail, not as JSON', () => {
    const problem = { type: 'https://example.test/probs/dup', title: 'Conflict', status: 400, detail: "Host 'esx01' already exists." };
    expect(serverMessage(JSON.stringify(problem))).toBe("Conflict: Host 'esx01' already exists.");
    expect(serverMessage(JSON.stringify({ Title: 'Bad request' }))).toBe('Bad request');
  });

  it('lists the field errors of an ASP.NET validation problem', () => {
    const problem = { title: 'One or more validation errors occurred.', status: 400, errors: { Name: ['The Name field is required.'], Iqn: ['Not an IQN.'] } };
    expect(serverMessage(JSON.stringify(problem))).toBe('One or more validation errors occurred. (Name: The Name field is required.; Iqn: Not an IQN.)');
  });

  it("keeps the document's plain string, and other text as it is", () => {
    expect(serverMessage(JSON.stringify('Pool not found.'))).toBe('Pool not found.');
    expect(serverMessage('{"Message":"odd"}')).toBe('{"Message":"odd"}');
    expect(serverMessage('plain words')).toBe('plain words');
    expect(serverMessage('')).toBeUndefined();
  });

  it('names a proxy page by its title, and tells JSON from pages', () => {
    const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    expect(pageSummary(page)).toBe('"502 Bad Gateway"');
    expect(pageSummary('')).toBe('an empty body');
    expect(isJsonText(page)).toBe(false);
    expect(isJsonText('"Service busy."')).toBe(true);
    expect(isJsonText('')).toBe(false);
  });
});
