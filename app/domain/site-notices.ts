/**
 * What a site wants its admin to know about how Fleetdeck reaches it, in words shared by the fleet
 * tree, the site manager and the CLI: a pinned certificate that expired (still trusted by its pin),
 * and a token scheme learned from the site.
 */

/** The fields of a site (or its view) the notices read. */
export interface SiteNoticeInput {
  tls: { expiredSince?: string | undefined };
  auth?: { tokenScheme: 'bearer' | 'raw'; learnedAt: string } | undefined;
}

export interface SiteNotice {
  kind: 'certificate-expired' | 'token-scheme';
  tone: 'warning' | 'info';
  /** One sentence, starting in lower case (it follows the site's name). */
  text: string;
}

/** `2026-01-31 13:45 UTC` from an ISO time; the text itself when it is none. */
export function utcMinute(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function siteNotices(site: SiteNoticeInput): SiteNotice[] {
  const out: SiteNotice[] = [];
  if (site.tls.expiredSince) {
    out.push({
      kind: 'certificate-expired',
      tone: 'warning',
      text: `certificate expired since ${utcMinute(site.tls.expiredSince)}: still trusted by its pinned fingerprint; renew it on the system, then trust the new one`,
    });
  }
  if (site.auth?.tokenScheme === 'raw') {
    out.push({
      kind: 'token-scheme',
      tone: 'info',
      text: `session token sent without "Bearer " since ${utcMinute(site.auth.learnedAt)}: the system refused "Bearer <token>" right after a login and took the bare token`,
    });
  }
  return out;
}
