import { describe, expect, it } from 'vitest';
import { RawJson, answerJson } from '../../../../main/ipc/raw-json.js';

describe('raw JSON answers', () => {
  const stored = '{"Data":[{"Name":"vol \\"1\\" $& $1","Size":10}],"Note":"fleetdeck-raw-0"}';

  it('splices the stored text into the answer as it is, wherever it sits', () => {
    const answer = { ok: true, value: { value: new RawJson(stored), at: '2025-03-01T10:00:00.000Z', stale: false } };
    const text = answerJson(answer);
    expect(text).toContain(stored);
    expect(JSON.parse(text)).toEqual({ ok: true, value: { value: JSON.parse(stored), at: '2025-03-01T10:00:00.000Z', stale: false } });
    expect(JSON.parse(answerJson({ ok: true, value: new RawJson('[1,2]') }))).toEqual({ ok: true, value: [1, 2] });
  });

  it('leaves strings that look like a placeholder alone: the placeholder has a fresh nonce per answer', () => {
    const lookalikes = ['fleetdeck-raw-0', 'fleetdeck-raw-00000000-0', '"fleetdeck-raw-'];
    const answer = { ok: true, value: { names: lookalikes, value: new RawJson('null') } };
    expect(JSON.parse(answerJson(answer))).toEqual({ ok: true, value: { names: lookalikes, value: null } });
    expect(answerJson({ ok: true, value: { plain: 'text' } })).toBe(JSON.stringify({ ok: true, value: { plain: 'text' } }));
  });
});
