import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionUser } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, or null on public routes without a session. */
    user: SessionUser | null;
    /** Permissions of the user's role in this environment. */
    permissions: string[];
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login, health, docs, device push callbacks). */
    public?: boolean;
    /** The caller needs at least one of these permissions (spec §6); '*:*:*' holds them all. */
    permission?: string[];
  }
}

/** The Fastify instance with zod schemas as the type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
