import type { Site, SiteInput, SitePatch } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { sameFingerprint } from '../../app/fingerprint.js';
import { CertificateError, probeCertificate } from '../client/index.js';
import { passwordAccount, sitePrefix } from '../secrets/accounts.js';
import { sameBaseUrl } from '../store/site-store.js';
import { isLoopbackUrl, urlProtocol } from '../net.js';
import type { FleetContext } from './fleet-context.js';

export type { SiteInput } from '../../app/domain/site.js';

/** Site administration: adding, editing, trusting, pausing and forgetting sites. */
export class SiteAdmin {
  constructor(private readonly f: FleetContext) {}

  /** Pauses or resumes a site: a paused site is never contacted. */
  async setPaused(siteId: string, paused: boolean): Promise<void> {
    const site = await this.f.o.sites.update(siteId, { polling: { ...this.f.site(siteId).polling, paused } });
    await this.f.liveConnection(site.id)?.update(site);
    if (paused) this.f.state.markSite(site.id, 'paused', undefined);
    else for (const s of this.f.state.status(site.id)) this.f.state.setStatus({ ...s, state: 'stale' });
  }

  /**
   * Pins the certificate a site presents now, after the admin compared its fingerprint.
   * @throws when `expectedSha256` is given and differs from what the site presents.
   */
  async trust(siteId: string, expectedSha256?: string): Promise<{ sha256: string }> {
    const site = this.f.site(siteId);
    this.f.o.sites.policy.assertWritable('pinning a certificate');
    this.f.o.sites.policy.assertSiteEditable(site, 'pinning a certificate');
    const presented = await probeCertificate(site.baseUrl, this.f.o.timeoutMs);
    if (expectedSha256 && !sameFingerprint(expectedSha256, presented.sha256)) {
      throw new CertificateError(`${site.name} presents ${presented.sha256}, not the fingerprint given`, presented.sha256);
    }
    const updated = await this.f.o.sites.update(site.id, { tls: { ...site.tls, pinSha256: presented.sha256, pinnedCertPem: presented.pem } });
    await this.f.liveConnection(site.id)?.update(updated);
    for (const s of this.f.state.status(site.id)) if (s.state === 'certificate-changed') this.f.state.setStatus({ ...s, state: 'stale', lastError: undefined });
    this.f.state.backoff.delete(site.id);
    return { sha256: presented.sha256 };
  }

  /**
   * Adds a site. For https the certificate is read first: without a CA bundle, the admin must have
   * confirmed its fingerprint (`trustSha256`), which is then pinned. The password goes to the
   * secret store only.
   * @throws CertificateError carrying the presented fingerprint when it is unconfirmed or differs.
   */
  async addSite(input: SiteInput): Promise<Site> {
    const tls: Site['tls'] = {};
    if (input.caBundlePem) tls.caBundlePem = input.caBundlePem;
    const draft = { name: input.name, baseUrl: input.baseUrl, username: input.username, group: input.group, tags: input.tags ?? [], allowHttp: input.allowHttp ?? false, tls };
    // A bad name or URL is refused before anything is contacted.
    this.f.o.sites.check(draft);
    if (urlProtocol(input.baseUrl) === 'https:') {
      if (input.trustSha256 || !input.caBundlePem) {
        const presented = await probeCertificate(input.baseUrl, this.f.o.timeoutMs ?? 15_000);
        if (!input.trustSha256) {
          throw new CertificateError(
            `${input.baseUrl} presents a certificate with SHA-256 ${presented.sha256} (${presented.subject.replace(/\n/g, ', ')}); confirm this fingerprint to trust it`,
            presented.sha256,
          );
        }
        if (!sameFingerprint(input.trustSha256, presented.sha256)) {
          throw new CertificateError(`${input.baseUrl} presents ${presented.sha256}, not the fingerprint given`, presented.sha256);
        }
        tls.pinSha256 = presented.sha256;
        tls.pinnedCertPem = presented.pem;
      }
    }
    const site = await this.f.o.sites.add(draft);
    if (input.password !== undefined) {
      try {
        await this.f.o.secrets.set(passwordAccount(site.id), input.password);
      } catch (err) {
        await this.f.o.sites.remove(site.id);
        throw err;
      }
    }
    return site;
  }

  /** Removes a site with every secret, cached answer and state of it. The action log keeps its history. */
  async forgetSite(siteId: string): Promise<void> {
    const site = this.f.site(siteId);
    // Refused before its secrets and cache are deleted: the policy's refusal loses nothing.
    this.f.o.sites.policy.assertWritable('removing a site');
    this.f.o.sites.policy.assertSiteEditable(site, 'removing a site');
    await this.f.dropConnection(site.id);
    await this.f.o.secrets.deleteAll(sitePrefix(site.id));
    this.f.o.cache.deleteSite(site.id);
    this.f.o.selectionScopes?.deleteSite(site.id);
    await this.f.o.sites.remove(site.id);
    this.f.state.forgetSite(site.id);
  }

  /**
   * Edits a site. Its password and session tokens belong to the endpoint they were given for, and
   * its pin to that endpoint's certificate: moving the site to another URL (scheme, host, port or
   * path) or dropping or changing its pin forgets all of them, so the next contact asks for the
   * password and, for https, for the certificate to be confirmed again. Nothing stored is ever
   * sent to the new endpoint.
   * @throws InputError for an invalid change, and for https → plain http to a non-loopback host
   *   (remove the site and add it again to mean that).
   */
  async editSite(siteId: string, patch: SitePatch): Promise<Site> {
    const before = this.f.site(siteId);
    const moved = patch.baseUrl !== undefined && !sameBaseUrl(patch.baseUrl, before.baseUrl);
    if (moved && urlProtocol(before.baseUrl) === 'https:' && urlProtocol(patch.baseUrl ?? '') === 'http:' && !isLoopbackUrl(patch.baseUrl ?? '')) {
      throw new InputError(
        `${before.name}: moving from https to plain http would send the password unencrypted; remove the site and add it again if plain http is really meant`,
      );
    }
    const repinned = patch.tls !== undefined && patch.tls.pinSha256 !== before.tls.pinSha256;
    const after = await this.f.o.sites.update(before.id, patch);
    if (moved || repinned) {
      await this.f.dropConnection(after.id);
      await this.f.o.secrets.deleteAll(sitePrefix(after.id));
      this.f.state.backoff.delete(after.id);
      const why = moved ? `moved to ${after.baseUrl}` : 'its certificate trust changed';
      const needsTrust = urlProtocol(after.baseUrl) === 'https:' && !after.tls.pinSha256 && !after.tls.caBundlePem;
      if (!after.polling.paused) this.f.state.markSite(after.id, needsTrust ? 'certificate-changed' : 'login-required', `${after.name} ${why}: ${needsTrust ? 'confirm its certificate, then log in again' : 'log in again'}`);
    } else {
      await this.f.liveConnection(after.id)?.update(after);
    }
    return after;
  }

  /**
   * Forgets what a site's endpoint was given (password, session tokens, a live session), after its
   * URL or trust changed outside {@link editSite} (a site-list import replaced it): the next
   * contact asks for the password, and for https the certificate is confirmed again.
   */
  async endpointReplaced(siteId: string): Promise<void> {
    const site = this.f.site(siteId);
    await this.f.dropConnection(site.id);
    await this.f.o.secrets.deleteAll(sitePrefix(site.id));
    this.f.state.backoff.delete(site.id);
    const needsTrust = urlProtocol(site.baseUrl) === 'https:' && !site.tls.pinSha256 && !site.tls.caBundlePem;
    if (!site.polling.paused) this.f.state.markSite(site.id, needsTrust ? 'certificate-changed' : 'login-required', `${site.name} was replaced by an imported site list: ${needsTrust ? 'confirm its certificate, then log in again' : 'log in again'}`);
  }

  /** Applies an edited site to its live connection. */
  async siteChanged(siteId: string): Promise<void> {
    const site = this.f.site(siteId);
    await this.f.liveConnection(site.id)?.update(site);
  }
}
