import type { Static, TSchema } from 'typebox';
import type { AppContext } from '../context.ts';

/** Progress events a long verb reports (an import's rows/s, say). */
export type Progress = (event: Record<string, unknown>) => void;

export interface Verb<S extends TSchema = TSchema, R = unknown> {
  args: S;
  run(ctx: AppContext, args: Static<S>, progress: Progress): Promise<R>;
}

export function defineVerb<S extends TSchema, R>(args: S, run: (ctx: AppContext, args: Static<S>, progress: Progress) => Promise<R>): Verb<S, R> {
  return { args, run };
}
