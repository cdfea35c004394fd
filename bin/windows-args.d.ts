/** The raw argument text `fleetdeck.cmd` echoed into its file; undefined when the file holds none. */
export function rawArgsFromEcho(text: string): string | undefined;
/** Splits a Windows command tail into arguments by the Microsoft C runtime's rules. */
export function splitWindowsArgs(tail: string): string[];
