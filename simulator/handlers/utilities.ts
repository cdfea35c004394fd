import { fail } from '../errors.js';
import { volumeIndex } from '../state/lookup.js';
import type { NodeState, SystemState } from '../state/model.js';
import { wearAt } from '../state/smart.js';

/**
 * Node utilities for GET /nodes/utils/run (the document names none). Output imitates the Linux tools.
 * `sleep <seconds>` really waits (up to the timeout), so clients can exercise their own timeouts.
 */
export const UTILITIES = ['uptime', 'df', 'ip-addr', 'dmesg', 'hostname', 'date', 'sleep'] as const;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function uptime(system: SystemState, node: NodeState, nowMs: number): string {
  const up = Math.max(0, nowMs - system.createdAtMs) + (node.id % 7) * 86_400_000 + 37 * 86_400_000;
  const days = Math.floor(up / 86_400_000);
  const hours = Math.floor((up % 86_400_000) / 3_600_000);
  const mins = Math.floor((up % 3_600_000) / 60_000);
  const d = new Date(nowMs);
  const load = (0.4 + (node.id % 5) / 10).toFixed(2);
  return ` ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} up ${days} days, ${hours}:${pad(mins)},  1 user,  load average: ${load}, ${load}, ${load}`;
}

function df(system: SystemState, node: NodeState): string {
  const rows = [
    ['Filesystem', '1K-blocks', 'Used', 'Available', 'Use%', 'Mounted on'],
    ['/dev/md0', '62914560', '18874368', '44040192', '30%', '/'],
    ['/dev/md1', '104857600', '41943040', '62914560', '40%', '/var'],
    ['tmpfs', '131072000', '1024', '131070976', '1%', '/run'],
  ];
  for (const { app, vol } of volumeIndex(system).values()) {
    if (!vol.fs?.mounted || vol.ownerNodeId !== node.id) continue;
    const total = Math.floor(vol.capacityBytes / 1024);
    const used = Math.floor(total * vol.consumed);
    rows.push([`/dev/fd${vol.id}`, String(total), String(used), String(total - used), `${Math.round(vol.consumed * 100)}%`, `/mnt/${app.name}/${vol.name}`]);
  }
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  return rows.map((r) => r.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' ').trimEnd()).join('\n');
}

function ipAddr(node: NodeState): string {
  const lines = ['1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000', '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00', '    inet 127.0.0.1/8 scope host lo'];
  node.nics.forEach((nic, i) => {
    const up = nic.status === 'OK';
    lines.push(`${i + 2}: ${nic.name}: <BROADCAST,MULTICAST${up ? ',UP,LOWER_UP' : ''}> mtu ${nic.role === 'management' ? 1500 : 9000} qdisc mq state ${up ? 'UP' : 'DOWN'} group default qlen 1000`);
    lines.push(`    link/ether ${nic.mac} brd ff:ff:ff:ff:ff:ff`);
    for (const ip of nic.ips) lines.push(`    inet ${ip.ip}/${ip.prefix} scope global ${nic.name}`);
  });
  return lines.join('\n');
}

function dmesg(node: NodeState, nowMs: number): string {
  const lines = [
    '[    0.000000] Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc 11.4.0) #101-Ubuntu SMP',
    '[    2.114375] ahci 0000:00:17.0: AHCI 0001.0301 32 slots 8 ports 6 Gbps 0xff impl SATA mode',
    '[    3.820145] nvme nvme0: 64/0/0 default/read/poll queues',
  ];
  for (const nic of node.nics) lines.push(`[   12.${String(nic.id).padStart(6, '0')}] ${nic.name}: Link is ${nic.status === 'OK' ? `Up - ${nic.speedGbs}Gbps/Full` : 'Down'}`);
  for (const d of node.drives) {
    if (d.status === 'OK' || d.status === 'Missing') continue;
    const w = wearAt(d, nowMs);
    const ata = d.type === 'NVMe' ? `nvme ${d.name}: I/O error, sector ${w.mediaErrors * 8191}` : `ata${d.slot + 1}.00: error: { UNC }, sector ${w.reallocated * 4093}`;
    lines.push(`[86412.${String(d.id).padStart(6, '0')}] ${ata}`);
    lines.push(`[86412.${String(d.id + 1).padStart(6, '0')}] blk_update_request: I/O error, dev ${d.name}, sector ${w.pending * 7919} op 0x0:(READ)`);
  }
  return lines.join('\n');
}

/** Runs a utility; resolves with its output or rejects (400) on timeout or unknown utility. */
export async function runUtility(system: SystemState, node: NodeState, utility: string, args: string, timeoutSeconds: number, nowMs: number, wait: (ms: number) => Promise<void>): Promise<string> {
  switch (utility.toLowerCase()) {
    case 'uptime':
      return uptime(system, node, nowMs);
    case 'df':
      return df(system, node);
    case 'ip-addr':
      return ipAddr(node);
    case 'dmesg':
      return dmesg(node, nowMs);
    case 'hostname':
      return node.name;
    case 'date':
      return new Date(nowMs).toUTCString();
    case 'sleep': {
      const seconds = Number(args.trim() || 'NaN');
      if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) fail('sleep needs args: a number of seconds from 0 to 3600.');
      await wait(Math.min(seconds, timeoutSeconds) * 1000);
      if (seconds > timeoutSeconds) fail(`Utility 'sleep' on node ${node.name} timed out after ${timeoutSeconds} s.`);
      return '';
    }
    default:
      fail(`Unknown utility '${utility}': available utilities are ${UTILITIES.join(', ')}.`);
  }
}
