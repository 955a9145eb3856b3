// Saves a Blob as a file through a temporary link.
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function trackFileName(names: readonly string[], start: number, extension: string): string {
  const day = new Date(start).toISOString().slice(0, 10);
  const who =
    names
      .join('_')
      .replace(/[^\p{L}\p{N}_-]+/gu, '')
      .slice(0, 60) || 'track';
  return `${who}_${day}.${extension}`;
}
