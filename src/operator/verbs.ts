import type { Static } from 'typebox';
import Value from 'typebox/value';
import { AppError } from '../shared/errors.ts';
import { findUnstorableText } from '../shared/storable-text.ts';
import type { AppContext } from '../context.ts';
import { dbVerbs } from './db-verbs.ts';
import { peopleVerbs } from './people-verbs.ts';
import { tokenVerbs } from './token-verbs.ts';
import { userVerbs } from './user-verbs.ts';
import { webhookVerbs } from './webhook-verbs.ts';
import type { Progress, Verb } from './verb.ts';

/**
 * Operator commands as domain verbs. The CLI runs them in its own process, or, when the
 * service holds the embedded database, sends them to the service's admin socket; either way
 * the same code runs against the same context.
 */
const VERBS = { ...tokenVerbs, ...peopleVerbs, ...dbVerbs, ...userVerbs, ...webhookVerbs };

/** Every verb, by name, with its own argument schema and result type. */
export type Verbs = typeof VERBS;
export type VerbName = keyof Verbs;
/** A verb's arguments, as its schema types them. */
export type VerbArgs<N extends VerbName> = Static<Verbs[N]['args']>;
/** What a verb's `run` gives, in the process that runs it. */
export type VerbResult<N extends VerbName> = Awaited<ReturnType<Verbs[N]['run']>>;

export function verbNames(): VerbName[] {
  return Object.keys(VERBS).filter(isVerbName);
}

export function isVerbName(name: string): name is VerbName {
  return Object.hasOwn(VERBS, name);
}

/**
 * Validates the arguments against the verb's schema, then runs it. The arguments are checked
 * here whatever their static type: over the admin socket they are whatever JSON arrived.
 */
export async function runVerb<N extends VerbName>(ctx: AppContext, name: N, args: unknown, progress?: Progress): Promise<VerbResult<N>>;
export async function runVerb(ctx: AppContext, name: string, args: unknown, progress?: Progress): Promise<unknown>;
export async function runVerb(ctx: AppContext, name: string, args: unknown, progress: Progress = () => undefined): Promise<unknown> {
  if (!isVerbName(name)) throw new AppError('not_found', `Unknown command ${name}.`);
  // Each verb is typed by its own schema; here, before the check, any verb's schema will do.
  const verb: Verb = VERBS[name];
  if (!Value.Check(verb.args, args)) {
    const first = Value.Errors(verb.args, args)[0];
    throw new AppError('bad_request', `Invalid arguments for ${name}${first ? `: ${first.instancePath || '/'} ${first.message}` : ''}.`);
  }
  // What the database cannot store (a NUL from a file or stdin, half a surrogate pair sent to the
  // admin socket) is named here, for every verb, rather than failing in a statement.
  const unstorable = findUnstorableText(args);
  if (unstorable) {
    const where = unstorable.inName ? 'the name of an argument' : `"${unstorable.path}"`;
    throw new AppError('bad_request', `Invalid arguments for ${name}: ${where} holds ${unstorable.problem}, which cannot be stored.`);
  }
  return verb.run(ctx, args, progress);
}
