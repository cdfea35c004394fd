// What the fleet overview's first frame shows of hardware (a drive's tone, a node's short name),
// apart from the hardware area's helpers (hardware.ts, which re-exports them), so the frame's script
// does not carry those.

import { classifyState } from '../../app/health/states.js';

const TONE_OF = { ok: 'ok', warning: 'warning', critical: 'critical', unknown: 'warning' } as const;

/**
 * Tone of a `ResourceStatus`/sensor status: a resource status the drive table knows takes its level
 * (app/health/states.ts, as the tree and the reports rate it); other words (link and node states) as
 * below. The interface shows only "OK"; anything else is not fine.
 */
export function statusTone(status: string | undefined): 'ok' | 'warning' | 'critical' | 'muted' {
  if (!status) return 'muted';
  const known = classifyState('drive', status);
  if (known?.understood) return TONE_OF[known.level];
  const s = status.toLowerCase();
  if (/^(ok|normal|online|running|up|enabled|approved|insync|healthy)$/.test(s)) return 'ok';
  if (/fail|critical|missing|error|down|linkdown/.test(s)) return 'critical';
  return 'warning';
}

/**
 * A node's name without its system's prefix, for tables that show the system beside it:
 * `tundra-01-n1` on tundra-01 is `n1`, so sda on n1 and sda on n2 stay apart however narrow the column.
 */
export function shortNode(system: string, node: string): string {
  return node.startsWith(`${system}-`) && node.length > system.length + 1 ? node.slice(system.length + 1) : node;
}
