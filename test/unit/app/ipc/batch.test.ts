import { describe, expect, it } from 'vitest';
import { batchCalls, joinAnswers, MAX_BATCH, splitAnswers } from '../../../../app/ipc/batch.js';

describe('a batch answer', () => {
  it('gives back each envelope text exactly, whatever characters a stored answer holds', () => {
    const texts = [
      '{"ok":true,"value":{"version":"1.2.3"}}',
      // A cached answer spliced in as stored: raw line ends, non-ASCII, an astral character.
      '{"ok":true,"value":{"Data":[\n  {"Name":"Zürich 🗄️","Note":"a\\nb"}\n]}}',
      '{"ok":false,"error":{"code":"store","message":"the cache could not be read"}}',
      '',
    ];
    expect(splitAnswers(joinAnswers(texts), texts.length)).toEqual(texts);
  });

  it('survives the trip through UTF-8: a lone surrogate becomes U+FFFD, one code unit for one', () => {
    const texts = ['{"ok":true,"value":"\ud800x"}', '{"ok":true,"value":1}'];
    const overTheWire = new TextDecoder().decode(new TextEncoder().encode(joinAnswers(texts)));
    expect(splitAnswers(overTheWire, 2)).toEqual(['{"ok":true,"value":"\ufffdx"}', '{"ok":true,"value":1}']);
  });

  it('is refused when it is cut short, longer than it says, for another number of calls, or not one at all', () => {
    const body = joinAnswers(['{"ok":true,"value":1}', '{"ok":true,"value":2}']);
    expect(splitAnswers(body.slice(0, -1), 2)).toBeUndefined();
    expect(splitAnswers(`${body} `, 2)).toBeUndefined();
    expect(splitAnswers(body, 3)).toBeUndefined();
    for (const other of ['', '{"ok":true,"value":1}', 'nope\n{}', '[-1]\n', '[1.5]\nx', '{"0":1}\nx']) expect(splitAnswers(other, 1), other).toBeUndefined();
  });
});

describe('a batch request', () => {
  it('is an array of [channel, request] pairs, one to MAX_BATCH of them', () => {
    expect(batchCalls([['app:info', {}], ['fleet:status', { site: 'a' }]])).toEqual([
      ['app:info', {}],
      ['fleet:status', { site: 'a' }],
    ]);
    const tooMany = Array.from({ length: MAX_BATCH + 1 }, () => ['app:info', {}]);
    for (const other of [[], tooMany, {}, null, 'app:info', [['app:info']], [[1, {}]], [['app:info', {}, 1]], [{ channel: 'app:info' }]]) {
      expect(batchCalls(other), JSON.stringify(other)).toBeUndefined();
    }
  });
});
