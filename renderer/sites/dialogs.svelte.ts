/** The site dialogs: one at a time, opened from the Sites view or from the attention bar. */
export type SiteDialogKind = 'edit' | 'login' | 'trust' | 'remove';

export interface SiteDialog {
  kind: SiteDialogKind;
  siteId: string;
}

export class SiteDialogs {
  current = $state.raw<SiteDialog | undefined>(undefined);

  open(kind: SiteDialogKind, siteId: string): void {
    this.current = { kind, siteId };
  }

  close(): void {
    this.current = undefined;
  }
}
