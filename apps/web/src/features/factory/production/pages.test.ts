// Every production screen is registered under a path the domain's /test route table knows.
import { findRoute } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import { productionPages } from './pages.ts';

describe('production pages', () => {
  it('are /test routes of the domain route table', () => {
    for (const path of Object.keys(productionPages)) expect(findRoute(`/test/${path}`), path).toBeDefined();
  });
});
