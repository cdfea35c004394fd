import type { Response } from '../../app/ipc/contract.js';
import { api } from './api.js';
import { errorText } from './format.js';

export type ForwardStatus = Response<'forward:status'>;

/** How the admin trusts a TLS collector in the form. */
export type TrustChoice = 'system' | 'pin' | 'ca';

/**
 * The syslog forwarding panel's state: the status main reports (read again every few seconds while
 * shown) and the settings form. The form starts from the setting in force.
 */
export class SyslogForwardState {
  status = $state.raw<ForwardStatus | undefined>();
  error = $state<string | undefined>();
  saving = $state(false);
  saveError = $state<string | undefined>();
  form = $state({ target: '', trust: 'system' as TrustChoice, pin: '', ca: '' });
  #filled = false;

  /** Reads the status; fills the form from it the first time. */
  async read(): Promise<void> {
    try {
      const s = await api().invoke('forward:status', {});
      this.status = s;
      this.error = undefined;
      if (!this.#filled) {
        this.#filled = true;
        this.form = { target: s.target ?? '', trust: s.trust === 'pinned' ? 'pin' : s.trust === 'ca' ? 'ca' : 'system', pin: s.pinSha256 ?? '', ca: '' };
      }
    } catch (err) {
      this.error = errorText(err);
    }
  }

  /** Saves the form as the setting (main checks it: the error says what to change). */
  async save(): Promise<void> {
    const { target, trust, pin, ca } = this.form;
    const tls = target.trim().startsWith('tls:');
    await this.set({ target: target.trim(), ...(tls && trust === 'pin' ? { pinSha256: pin.trim() } : {}), ...(tls && trust === 'ca' ? { ca } : {}) });
  }

  /** Turns forwarding off (queued records stay queued). */
  async off(): Promise<void> {
    await this.set(null);
  }

  private async set(setting: { target: string; pinSha256?: string; ca?: string } | null): Promise<void> {
    if (this.saving) return;
    this.saving = true;
    try {
      this.status = await api().invoke('forward:set', { setting });
      this.saveError = undefined;
    } catch (err) {
      this.saveError = errorText(err);
    } finally {
      this.saving = false;
    }
  }
}
