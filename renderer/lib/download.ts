/**
 * Hands a file's text to the browser as a download (the browser shell: main has no save dialog
 * there). The object URL is released once the download has been started.
 */
export function downloadText(file: { fileName: string; mimeType: string; content: string }, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
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
