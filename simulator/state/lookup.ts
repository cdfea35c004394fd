import { fail } from '../errors.js';
import type { AppState, DriveState, HostState, NodeState, SiteState, SystemState, VolumeState } from './model.js';

/** Case-insensitive name equality: the service matches names without regard to case. */
export function sameName(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

export function systemById(site: SiteState, id: number): SystemState | undefined {
  return site.systems.find((s) => s.id === id);
}

export function findSystem(site: SiteState, name: string): SystemState | undefined {
  return site.systems.find((s) => sameName(s.name, name) || String(s.id) === name.trim());
}

/** Another system of the same site, by name; 400 when missing or the current one. */
export function requireTargetSystem(site: SiteState, current: SystemState, name: string | undefined): SystemState {
  if (!name) fail('TargetSystem is required.');
  const target = findSystem(site, name);
  if (!target) fail(`System '${name}' does not exist at this site.`);
  if (target.id === current.id) fail(`System '${name}' is the current system; choose a remote system.`);
  return target;
}

export function findApp(system: SystemState, name: string | undefined): AppState | undefined {
  return name === undefined ? undefined : system.apps.find((a) => sameName(a.name, name));
}

export function requireApp(system: SystemState, name: string | undefined): AppState {
  if (!name) fail('Application is required.');
  const app = findApp(system, name);
  if (!app) fail(`Application '${name}' does not exist.`);
  return app;
}

export function requireVolume(app: AppState, name: string | undefined): VolumeState {
  if (!name) fail('Volume is required.');
  const vol = app.volumes.find((v) => sameName(v.name, name));
  if (!vol) fail(`Volume '${name}' does not exist in application '${app.name}'.`);
  return vol;
}

export interface VolumeEntry {
  app: AppState;
  vol: VolumeState;
}

export function volumeById(system: SystemState, id: number): VolumeEntry | undefined {
  for (const app of system.apps) {
    const vol = app.volumes.find((v) => v.id === id);
    if (vol) return { app, vol };
  }
  return undefined;
}

export function volumeIndex(system: SystemState): Map<number, VolumeEntry> {
  const out = new Map<number, VolumeEntry>();
  for (const app of system.apps) for (const vol of app.volumes) out.set(vol.id, { app, vol });
  return out;
}

export function findHost(system: SystemState, name: string | undefined): HostState | undefined {
  return name === undefined ? undefined : system.hosts.find((h) => sameName(h.name, name));
}

export function requireHost(system: SystemState, name: string | undefined): HostState {
  if (!name) fail('Host name is required.');
  const host = findHost(system, name);
  if (!host) fail(`Host '${name}' does not exist.`);
  return host;
}

export function findNode(system: SystemState, name: string | undefined): NodeState | undefined {
  return name === undefined ? undefined : system.nodes.find((n) => sameName(n.name, name) || String(n.id) === name.trim());
}

export function requireNode(system: SystemState, name: string | undefined): NodeState {
  if (!name) fail('Node is required.');
  const node = findNode(system, name);
  if (!node) fail(`Node '${name}' does not exist.`);
  return node;
}

/** The node answering management requests: the connected node, or the first running one. */
export function managementNode(system: SystemState): NodeState {
  const current = system.nodes.find((n) => n.id === system.managementNodeId && n.state === 'Running');
  return current ?? system.nodes.find((n) => n.state === 'Running') ?? (system.nodes[0] as NodeState);
}

export function allDrives(system: SystemState): Array<{ node: NodeState; drive: DriveState }> {
  return system.nodes.flatMap((node) => node.drives.map((drive) => ({ node, drive })));
}

/** HA partner of a node: nodes are paired 1–2, 3–4. */
export function partnerOf(system: SystemState, node: NodeState): NodeState | undefined {
  const i = system.nodes.indexOf(node);
  return system.nodes[i ^ 1];
}
