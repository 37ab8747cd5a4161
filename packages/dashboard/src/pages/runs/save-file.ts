// Hands bytes read through the API (with the API key) to the browser as a download.
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; give a slow disk a minute before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
