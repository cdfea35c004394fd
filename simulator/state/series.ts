import { noise } from '../random.js';

/**
 * Deterministic pseudo-random time series: every value is a pure function of (system seed, entity,
 * metric, time bucket), so history needs no storage and two runs with one seed agree point for point.
 * A daily wave (peak at 14:00 UTC) times minute-level jitter keeps charts plausible.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

function daily(tMs: number): number {
  return 0.6 + 0.4 * Math.sin(2 * Math.PI * ((tMs % DAY) / DAY - 14 / 24 + 0.25));
}

function jitter(seed: number, entity: number, metric: number, tMs: number): number {
  return 0.85 + 0.3 * noise(seed, entity, metric, Math.floor(tMs / MINUTE));
}

const IO_SIZES = [4096, 8192, 16384, 32768, 65536, 131072] as const;

export interface VolumeLoad {
  readIops: number;
  writeIops: number;
  readLatencyMs: number;
  writeLatencyMs: number;
  readIoSize: number;
  writeIoSize: number;
}

/** Load of one volume at a time; `hdd` volumes are slower, `degraded` ones slower still. */
export function volumeLoad(seed: number, volumeEntity: number, tMs: number, hdd: boolean, degraded: boolean): VolumeLoad {
  const base = 150 + noise(seed, volumeEntity, 1) * 6000;
  const f = daily(tMs + noise(seed, volumeEntity, 9) * 3 * 3_600_000);
  const iops = base * f * jitter(seed, volumeEntity, 2, tMs);
  const readShare = 0.45 + 0.4 * noise(seed, volumeEntity, 3);
  const latBase = (hdd ? 4 + 6 * noise(seed, volumeEntity, 4) : 0.25 + 0.9 * noise(seed, volumeEntity, 4)) * (degraded ? 2.5 : 1);
  const latF = 0.8 + 0.5 * f * jitter(seed, volumeEntity, 5, tMs);
  return {
    readIops: Math.round(iops * readShare),
    writeIops: Math.round(iops * (1 - readShare)),
    readLatencyMs: round2(latBase * latF),
    writeLatencyMs: round2(latBase * latF * 1.3),
    readIoSize: IO_SIZES[Math.floor(noise(seed, volumeEntity, 6) * IO_SIZES.length)] as number,
    writeIoSize: IO_SIZES[Math.floor(noise(seed, volumeEntity, 7) * IO_SIZES.length)] as number,
  };
}

export interface NodeLoad {
  cpu: number;
  memory: number;
  hdd: number;
  ssd: number;
  nvme: number;
}

/** Utilisation percentages (integers 0–100) of one node at a time. */
export function nodeLoad(seed: number, nodeId: number, tMs: number): NodeLoad {
  const f = daily(tMs);
  const pct = (metric: number, lo: number, span: number): number =>
    Math.max(0, Math.min(100, Math.round(lo + span * f * jitter(seed, nodeId, metric, tMs))));
  return {
    cpu: pct(11, 8, 55),
    memory: Math.round(52 + 14 * noise(seed, nodeId, 12) + 4 * noise(seed, nodeId, 13, Math.floor(tMs / (10 * MINUTE)))),
    hdd: pct(14, 5, 60),
    ssd: pct(15, 3, 40),
    nvme: pct(16, 2, 35),
  };
}

/** A reading near `base` that wanders by up to ±spread, minute by minute. */
export function sensorReading(seed: number, entity: number, base: number, spread: number, tMs: number): number {
  return base + spread * (2 * noise(seed, entity, 21, Math.floor(tMs / MINUTE)) - 1);
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Bucket start times from `fromMs` to `toMs` inclusive, `intervalMs` apart, aligned to the interval. */
export function buckets(fromMs: number, toMs: number, intervalMs: number): number[] {
  const out: number[] = [];
  const start = Math.ceil(fromMs / intervalMs) * intervalMs;
  for (let t = start; t <= toMs; t += intervalMs) out.push(t);
  return out;
}
