// Initial JavaScript of a route: the entry chunk and everything it imports statically, plus (for a lazy
// route) the route's chunk and its static imports; gzip-compressed as a server would send it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Chunk keys loaded before a module runs: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop() as string;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

export function gzipBytes(distDir: string, manifest: Manifest, keys: Iterable<string>): number {
  let total = 0;
  for (const key of keys) {
    const file = manifest[key].file;
    if (file.endsWith('.js')) total += gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  }
  return total;
}

export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!key) throw new Error('no entry chunk in the Vite manifest');
  return key;
}
