/** A file main handed to the window: its text, or its bytes as base64 (a ZIP). */
export type DownloadFile = { fileName: string; mimeType: string } & ({ content: string } | { base64: string });

/**
 * Hands a file to the browser as a download (the browser shell: main has no save dialog there).
 * The object URL is released once the download has been started.
 */
export function downloadText(file: DownloadFile, doc: Document = document): void {
  const body = 'content' in file ? file.content : Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([body], { type: file.mimeType }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.rel = 'noopener';
  a.hidden = true;
  doc.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // Revoked after the click has been handled: revoking at once can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
