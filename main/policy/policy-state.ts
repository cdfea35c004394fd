import type { MachinePolicy, PolicyProblem } from '../../app/policy/machine-policy.js';

/** The machine policy as read at start: what applies, or why nothing does. */
export interface PolicyState {
  /** The file read (or looked for). */
  file: string;
  /** `none`: no file; `applied`; `refused`: there but unusable (the workstation is then read-only). */
  status: 'none' | 'applied' | 'refused';
  /** The policy in force (`applied` only). */
  policy?: MachinePolicy;
  /** Why a refused policy was refused. */
  problems: PolicyProblem[];
  /** Set when every write is refused: the sentence a refused write carries. */
  readOnly?: string;
  /** The update feed, https, ending in `/` (from the file, or the Windows registry value). */
  updateUrl?: string;
  /** Why a configured update feed is not used. */
  updateProblem?: string;
  /** Things worth a log line (an override file ignored because the OS's file exists). */
  notes: string[];
}
