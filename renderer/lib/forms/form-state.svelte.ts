import type { FormCounts, FormValues } from './op-form.js';

/**
 * The live state of one generated form. A class (not a plain `$state` object) so nested field
 * editors can write into it without each level re-binding the whole tree.
 */
export class FormState {
  values = $state<FormValues>({});
  counts = $state<FormCounts>({});
  /** Inputs the admin has left at least once: their problems show from then on. */
  touched = $state<Record<string, boolean>>({});
  /** A submit was tried: every problem shows. */
  attempted = $state(false);
  /** Moves on every change of a value or an item count, so answers to an older request can be told apart. */
  revision = $state(0);
  readonly #initial: Readonly<FormValues>;

  constructor(initial: Readonly<FormValues> = {}) {
    this.values = { ...initial };
    this.#initial = { ...initial };
  }

  /** True when the admin has typed or chosen anything the form did not open with. */
  get dirty(): boolean {
    for (const k of [...Object.keys(this.values), ...Object.keys(this.#initial)]) if ((this.values[k] ?? '') !== (this.#initial[k] ?? '')) return true;
    return Object.values(this.counts).some((n) => n > 0);
  }

  text(id: string): string {
    return this.values[id] ?? '';
  }

  set(id: string, text: string): void {
    if ((this.values[id] ?? '') === text) return;
    this.values[id] = text;
    this.revision++;
  }

  touch(id: string): void {
    this.touched[id] = true;
  }

  count(id: string): number {
    return this.counts[id] ?? 0;
  }

  addItem(id: string): void {
    this.counts[id] = this.count(id) + 1;
    this.revision++;
  }

  /** Removes item `index` of an array input, moving the later items (and anything nested in them) up one place. */
  removeItem(id: string, index: number): void {
    const n = this.count(id);
    const rekey = <T>(record: Readonly<Record<string, T>>): Record<string, T> => {
      const out: Record<string, T> = {};
      for (const [k, v] of Object.entries(record)) {
        const m = k.startsWith(`${id}[`) ? /^\[(\d+)\](.*)$/.exec(k.slice(id.length)) : null;
        if (!m) {
          out[k] = v;
          continue;
        }
        const i = Number(m[1]);
        if (i === index) continue;
        out[i > index ? `${id}[${i - 1}]${m[2]}` : k] = v;
      }
      return out;
    };
    this.values = rekey(this.values);
    this.counts = { ...rekey(this.counts), [id]: Math.max(0, n - 1) };
    this.revision++;
  }

  /** Forgets the given inputs' text: secrets after a submit. */
  clear(ids: readonly string[]): void {
    for (const id of ids) this.values[id] = '';
  }
}
