/**
 * Imports point downward only (docs/architecture.md): composition (main, app, admin, migrate) → HTTP
 * (api/, http/, ingress/) → domain (runs/, webhooks/, automations/, engine/, …) → base (db/, crypto/,
 * settings, problems, …). A module may import its own layer or a lower one, never a higher one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

const LAYERS: Array<{ name: string; members: string[] }> = [
  { name: 'base', members: ['generated', 'db', 'crypto', 'clock', 'settings', 'logger', 'periodic-job', 'private-files', 'package-root', 'problems', 'pagination', 'json', 'wakeup', 'telemetry'] },
  {
    name: 'domain',
    members: ['context', 'teams', 'api-keys', 'secrets', 'environments', 'factories', 'webhooks', 'automations', 'runs', 'artifacts', 'schedules', 'engine', 'skills', 'notifications', 'budgets', 'audit'],
  },
  { name: 'http', members: ['api', 'http', 'ingress'] },
  { name: 'composition', members: ['main', 'app', 'admin', 'migrate', 'install-harnesses'] },
];

function layerOf(file: string): number {
  const top = path.relative(src, file).split(path.sep)[0]!.replace(/\.ts$/, '');
  const index = LAYERS.findIndex((layer) => layer.members.includes(top));
  if (index < 0) throw new Error(`${top} belongs to no layer: add it to LAYERS (and docs/architecture.md)`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(src)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1] ?? match[2]!);
      if (layerOf(target) > layerOf(file)) {
        found.push(`${path.relative(src, file)} (${LAYERS[layerOf(file)]!.name}) imports ${path.relative(src, target)} (${LAYERS[layerOf(target)]!.name})`);
      }
    }
  }
  return found;
}

describe('the layers of the server', () => {
  it('every top-level module belongs to a layer', () => {
    for (const entry of fs.readdirSync(src)) expect(() => layerOf(path.join(src, entry)), entry).not.toThrow();
  });

  it('no module imports a higher layer', () => {
    expect(upwardImports()).toEqual([]);
  });
});
