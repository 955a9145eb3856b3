// The web's route table must agree with the domain's (spec §2): same paths, same permissions.
import { findRoute } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import { featureRoutes } from './routes.tsx';

describe('featureRoutes', () => {
  it('are all known to the domain route table with the same permissions', () => {
    expect(featureRoutes.length).toBeGreaterThan(0);
    for (const r of featureRoutes) {
      const def = findRoute(`/index/${r.path}`);
      expect(def, `/index/${r.path} is not in @carhere/domain ROUTES`).toBeDefined();
      expect([...(def?.permissions ?? [])].sort(), `/index/${r.path}`).toEqual([...r.permission].sort());
    }
  });

  it('have unique paths', () => {
    const paths = featureRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
