import { describe, expect, it } from 'vitest';
import { exposition, familyHeader, formatFor, histogramSamples, labelPairs, labelValue, sampleValue } from '../../../../main/metrics/exposition.js';
import { parseListen } from '../../../../main/metrics/endpoint.js';
import { POLL_BUCKETS_SECONDS, SelfMetrics } from '../../../../main/metrics/self-metrics.js';

describe('the text formats', () => {
  it('escapes backslash, double quote and line feed in label values, and nothing else', () => {
    expect(labelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(labelValue('plain – ünïcode {x}')).toBe('plain – ünïcode {x}');
    expect(labelPairs({ site: 'lab "1"', system: 'a\\b' })).toBe('site="lab \\"1\\"",system="a\\\\b"');
  });

  it('writes special values as Go reads them', () => {
    expect([NaN, Infinity, -Infinity, 0.5, 12].map(sampleValue)).toEqual(['NaN', '+Inf', '-Inf', '0.5', '12']);
  });

  it('negotiates OpenMetrics only when the Accept header asks for it', () => {
    expect(formatFor(undefined)).toBe('prometheus');
    expect(formatFor('text/plain;version=0.0.4;q=0.5,*/*;q=0.1')).toBe('prometheus');
    expect(formatFor('application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5')).toBe('openmetrics');
    expect(formatFor('application/openmetrics-text; version=2.0.0')).toBe('prometheus');
    expect(formatFor('application/openmetrics-text;q=0')).toBe('prometheus');
  });

  it('names counter and info families as each format wants, with units and escaped help in OpenMetrics', () => {
    const counter = { name: 'x_requests_total', type: 'counter', help: 'a "b"\\c' } as const;
    expect(familyHeader(counter, 'prometheus')).toBe('# HELP x_requests_total a "b"\\\\c\n# TYPE x_requests_total counter\n');
    expect(familyHeader(counter, 'openmetrics')).toBe('# HELP x_requests a \\"b\\"\\\\c\n# TYPE x_requests counter\n');
    const info = { name: 'x_build_info', type: 'info', help: 'h' } as const;
    expect(familyHeader(info, 'prometheus')).toContain('# TYPE x_build_info gauge\n');
    expect(familyHeader(info, 'openmetrics')).toContain('# TYPE x_build info\n');
    expect(familyHeader({ name: 'x_bytes', type: 'gauge', unit: 'bytes', help: 'h' }, 'openmetrics')).toContain('# UNIT x_bytes bytes\n');
    expect(exposition([{ spec: info, samples: 'x_build_info 1\n' }], 'openmetrics').endsWith('x_build_info 1\n# EOF\n')).toBe(true);
    expect(exposition([{ spec: info, samples: 'x_build_info 1\n' }], 'prometheus').endsWith('x_build_info 1\n')).toBe(true);
  });

  it('writes a histogram cumulatively, ending in +Inf, sum and count', () => {
    const self = new SelfMetrics();
    for (const s of [0.05, 0.3, 0.3, 400]) self.poll('lab', 'steady', s);
    const h = self.polls.get('lab')?.get('steady');
    if (!h) throw new Error('no histogram recorded');
    const text = histogramSamples('p', 'site="lab"', POLL_BUCKETS_SECONDS, h);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(POLL_BUCKETS_SECONDS.length + 3);
    expect(lines.slice(0, 3)).toEqual(['p_bucket{site="lab",le="0.1"} 1', 'p_bucket{site="lab",le="0.25"} 1', 'p_bucket{site="lab",le="0.5"} 3']);
    expect(lines.slice(-4)).toEqual(['p_bucket{site="lab",le="300"} 3', 'p_bucket{site="lab",le="+Inf"} 4', 'p_sum{site="lab"} 400.65', 'p_count{site="lab"} 4']);
  });
});

describe('the listen address', () => {
  it('is loopback unless an address is named', () => {
    expect(parseListen('9852')).toEqual({ host: '127.0.0.1', port: 9852 });
    expect(parseListen(':9852')).toEqual({ host: '127.0.0.1', port: 9852 });
    expect(parseListen('0.0.0.0:0')).toEqual({ host: '0.0.0.0', port: 0 });
    expect(parseListen('[::1]:9852')).toEqual({ host: '::1', port: 9852 });
    expect(parseListen('metrics.example:9852')).toEqual({ host: 'metrics.example', port: 9852 });
    for (const bad of ['', 'host', 'host:', '1.2.3.4:70000', '::1:9852', 'a:b:1']) expect(() => parseListen(bad), bad).toThrow(/not ADDR:PORT/);
  });
});
