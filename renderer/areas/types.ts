import type { LazyPart } from '../lib/lazy.js';
import type { FleetHealth } from '../lib/fleet-health.svelte.js';
import type { AreaDetail, Nav } from '../lib/nav.svelte.js';
import type { SystemContext } from '../lib/system.svelte.js';

/** What every area component receives. */
export interface AreaProps {
  /** The system shown; every call goes through it (its own session in main). */
  sys: SystemContext;
  nav: Nav;
  /** A drill-down inside the area (a drive, a NIC, an operation …). */
  detail?: AreaDetail | undefined;
  /** The fleet's health as main summarised it: what the tree and the overview show. */
  health?: FleetHealth | undefined;
}

/** Headings areas are listed under in the palette and the system page. */
export type AreaGroup = 'Health' | 'Storage' | 'Access' | 'Protection' | 'Hardware' | 'Administration' | 'Tools';

/** An area as the fleet tree and the command palette list it: without its component (`list.ts`). */
export type AreaInfo = Omit<AreaDef, 'part'>;

export interface AreaDef {
  /** Stable id used in routes. */
  id: string;
  title: string;
  /** A shorter word for the area tabs (the title stays the accessible name), so they fit a 1024 px window. */
  short?: string;
  group: AreaGroup;
  /** The area's component, loaded when first opened. */
  part: LazyPart<AreaProps>;
  /** False while the area shows only its cached data (it is still to be built). */
  ready: boolean;
  /** Extra words the command palette matches. */
  keywords: readonly string[];
}
