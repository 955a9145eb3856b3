// The navigation guard of spec §2, as a pure decision the router acts on.
export type GuardDecision = 'allow' | 'login' | 'notFound' | 'home';

export function holds(permissions: string[], needed: string[]): boolean {
  return needed.length === 0 || permissions.includes('*:*:*') || needed.some((p) => permissions.includes(p));
}

export function guardDecision(opts: {
  path: string;
  loggedIn: boolean;
  permissions: string[];
  needed: string[] | null;
}): GuardDecision {
  if (opts.path === '/notFound') return 'allow';
  if (opts.path === '/login') return opts.loggedIn ? 'home' : 'allow';
  if (!opts.loggedIn) return 'login';
  if (opts.needed === null) return 'notFound';
  return holds(opts.permissions, opts.needed) ? 'allow' : 'notFound';
}
