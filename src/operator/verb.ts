import type { Static, TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import type { Progress } from '../shared/progress.ts';

export type { Progress };

export interface Verb<S extends TSchema = TSchema, R = unknown> {
  args: S;
  run(ctx: AppContext, args: Static<S>, progress: Progress): Promise<R>;
}

export function defineVerb<S extends TSchema, R>(args: S, run: (ctx: AppContext, args: Static<S>, progress: Progress) => Promise<R>): Verb<S, R> {
  return { args, run };
}
